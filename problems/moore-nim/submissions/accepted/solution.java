// Moore's theorem: lost for the mover exactly when every binary digit is
// set in a multiple of k + 1 heaps.
import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        long n = next(in), k = next(in);
        long[] count = new long[64];
        for (long i = 0; i < n; i++) {
            long a = next(in);
            for (int b = 0; b < 64; b++)
                if ((a >>> b & 1) == 1) count[b]++;
        }
        boolean lost = true;
        for (int b = 0; b < 64; b++)
            if (count[b] % (k + 1) != 0) lost = false;
        System.out.println(lost ? "Bob" : "Alice");
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
