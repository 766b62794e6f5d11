// Exact Beatty-sequence test with BigInteger: 5k^2 reaches 5e36, beyond long.
import java.io.*;
import java.math.BigInteger;

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

    /** Next non-negative number (up to 10^18), or -1 at the end of the input. */
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

    static final BigInteger FIVE = BigInteger.valueOf(5);

    public static void main(String[] args) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            long a = next(), b = next();
            if (a < 0 || b < 0) break;
            if (a > b) { long t = a; a = b; b = t; }
            BigInteger k = BigInteger.valueOf(b - a);
            BigInteger cold = k.add(k.multiply(k).multiply(FIVE).sqrt()).shiftRight(1);
            sb.append(cold.longValue() == a ? "0\n" : "1\n");
        }
        System.out.print(sb);
    }
}
