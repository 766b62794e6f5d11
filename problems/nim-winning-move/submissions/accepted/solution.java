// Nim-sum s; if s != 0 some pile has s's top bit, and a_i xor s < a_i there.
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

    static long next() throws IOException {
        int c = read();
        while (c != -1 && (c < '0' || c > '9')) c = read();
        long v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = read();
        }
        return v;
    }

    public static void main(String[] args) throws IOException {
        int n = (int) next();
        long[] a = new long[n];
        long s = 0;
        for (int i = 0; i < n; i++) {
            a[i] = next();
            s ^= a[i];
        }
        if (s == 0) {
            System.out.println("lose");
            return;
        }
        for (int i = 0; i < n; i++) {
            if ((a[i] ^ s) < a[i]) {
                System.out.println((i + 1) + " " + (a[i] ^ s));
                return;
            }
        }
    }
}
