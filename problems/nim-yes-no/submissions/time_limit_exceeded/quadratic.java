// Too slow: for every pile, recomputes the XOR of all the other piles to
// see whether that pile can be reduced to it (a winning move). Correct, but
// O(n^2): 10^10 steps for n = 10^5.
import java.io.DataInputStream;
import java.io.IOException;

public class Quadratic {
    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(System.in, 1 << 16));
        int n = (int) next(in);
        long[] a = new long[n];
        for (int i = 0; i < n; i++) a[i] = next(in);
        boolean win = false;
        for (int i = 0; i < n && !win; i++) {
            long others = 0;
            for (int j = 0; j < n; j++) if (j != i) others ^= a[j];
            if (others < a[i]) win = true;
        }
        System.out.println(win ? "Yes" : "No");
    }

    static long next(DataInputStream in) throws IOException {
        int c = in.read();
        while (c != -1 && (c < '0' || c > '9')) c = in.read();
        long v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = in.read();
        }
        return v;
    }
}
