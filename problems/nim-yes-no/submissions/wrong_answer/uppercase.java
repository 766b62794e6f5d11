// Mistake: prints "YES"/"NO" in capitals; the checker compares tokens
// case-sensitively and expects "Yes"/"No".
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

        long nextLong() throws IOException {
            int c = read();
            while (c != -1 && (c < '0' || c > '9')) c = read();
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
        int n = (int) r.nextLong();
        long x = 0;
        for (int i = 0; i < n; i++) x ^= r.nextLong();
        System.out.println(x != 0 ? "YES" : "NO");
    }
}
