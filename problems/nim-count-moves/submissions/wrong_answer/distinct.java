// Mistake: counts winning moves by the resulting pile sizes, so equal piles
// that each have a winning move are counted once.
import java.io.*;
import java.util.*;

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
        if (c == -1) return -1;
        long v = 0;
        while (c >= '0' && c <= '9') { v = v * 10 + (c - '0'); c = read(); }
        return v;
    }

    public static void main(String[] args) throws IOException {
        StringBuilder sb = new StringBuilder();
        long n;
        while ((n = next()) > 0) {
            long[] a = new long[(int) n];
            long s = 0;
            for (int i = 0; i < n; i++) { a[i] = next(); s ^= a[i]; }
            Set<Long> moves = new HashSet<>();
            for (long v : a) if ((v ^ s) < v) moves.add(v);
            sb.append(moves.size()).append('\n');
        }
        System.out.print(sb);
    }
}
