// The first player loses exactly when n is a multiple of m + 1: whatever
// they take, the opponent completes the round to m + 1 stones.
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

        int nextInt() throws IOException {
            int c = read();
            while (c != -1 && (c < '0' || c > '9')) c = read();
            int v = 0;
            while (c >= '0' && c <= '9') {
                v = v * 10 + (c - '0');
                c = read();
            }
            return v;
        }
    }

    public static void main(String[] args) throws IOException {
        Reader r = new Reader();
        int c = r.nextInt();
        StringBuilder out = new StringBuilder();
        while (c-- > 0) {
            int n = r.nextInt(), m = r.nextInt();
            out.append(n % (m + 1) != 0 ? "first\n" : "second\n");
        }
        System.out.print(out);
    }
}
