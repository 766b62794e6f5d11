// Mistake: detects "every pile is a single stone" by checking total == n,
// with the total in a 32-bit int. Piles up to 10^9 overflow it, and a total
// of n + 2^32 wraps around to exactly n.
import java.io.DataInputStream;
import java.io.IOException;

public class IntSum {
    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(System.in, 1 << 16));
        int n = next(in);
        int sum = 0, x = 0;
        for (int i = 0; i < n; i++) {
            int a = next(in);
            sum += a;
            x ^= a;
        }
        boolean first = sum == n ? n % 2 == 0 : x != 0;
        System.out.println(first ? "X" : "Y");
    }

    static int next(DataInputStream in) throws IOException {
        int c = in.read();
        while (c != -1 && (c < '0' || c > '9')) c = in.read();
        int v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = in.read();
        }
        return v;
    }
}
