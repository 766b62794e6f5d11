// Pile i has a winning move iff (a_i xor s) < a_i, s the nim-sum; one per pile.
import java.io.*;

public class Main {
    static InputStream in = System.in;
    static byte[] buf = new byte[1 << 16];
    static int len = 0, pos = 0;

    static int read() throws IOException {
        if (pos == len) {
            len = in.read(buf, 0, buf.length);
            pos = 0;
            if (len <= 0) { len = 0; return -1; }
        }
        return buf[pos++];
    }

    /** Next non-negative number, or -1 at the end of the input. */
    static long next() throws IOException {
        int c = read();
        while (c != -1 && (c < '0' || c > '9')) c = read();
        if (c == -1) return -1;
        long v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = read();
        }
        return v;
    }

    public static void main(String[] args) throws IOException {
        StringBuilder sb = new StringBuilder();
        long n;
        while ((n = next()) > 0) {
            long[] a = new long[(int) n];
            long s = 0;
            for (int i = 0; i < n; i++) { a[i] = next(); s ^= a[i]; }
            int count = 0;
            for (long v : a) if ((v ^ s) < v) count++;
            sb.append(count).append('\n');
        }
        System.out.print(sb);
    }
}
