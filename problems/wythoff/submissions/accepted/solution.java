// Exact Beatty-sequence test in long arithmetic: 5k^2 <= 5e18 < 2^63.
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

    static long isqrt(long n) {
        long x = (long) Math.sqrt((double) n);
        while (x * x > n) x--;
        while ((x + 1) * (x + 1) <= n) x++;
        return x;
    }

    public static void main(String[] args) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            long a = next(), b = next();
            if (a < 0 || b < 0) break;
            if (a > b) { long t = a; a = b; b = t; }
            long k = b - a;
            sb.append((k + isqrt(5 * k * k)) / 2 == a ? "0\n" : "1\n");
        }
        System.out.print(sb);
    }
}
