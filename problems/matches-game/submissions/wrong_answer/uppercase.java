// Mistake: prints "YES"/"NO" in capitals; tokens are compared
// case-sensitively and the answers are "Yes"/"No".
import java.io.DataInputStream;
import java.io.IOException;

public class Main {
    static final class Reader {
        private final DataInputStream in = new DataInputStream(System.in);
        private final byte[] buf = new byte[1 << 16];
        private int len = 0, pos = 0;

        private int read() throws IOException {
            if (pos == len) {
                len = in.read(buf, 0, buf.length);
                pos = 0;
                if (len <= 0) {
                    len = 0;
                    return -1;
                }
            }
            return buf[pos++];
        }

        /** The next number, or -1 at the end of the input. */
        long next() throws IOException {
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
    }

    public static void main(String[] args) throws IOException {
        Reader r = new Reader();
        StringBuilder out = new StringBuilder();
        long m;
        while ((m = r.next()) != -1) {
            long x = 0;
            for (long i = 0; i < m; i++) x ^= r.next();
            out.append(x != 0 ? "YES\n" : "NO\n");
        }
        System.out.print(out);
    }
}
