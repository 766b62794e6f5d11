// The first player loses exactly when the piles pair up into equal twins.
import java.io.*;
import java.util.Arrays;

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
    static int next() throws IOException {
        int c = read();
        while (c != -1 && (c < '0' || c > '9')) c = read();
        if (c == -1) return -1;
        int v = 0;
        while (c >= '0' && c <= '9') { v = v * 10 + (c - '0'); c = read(); }
        return v;
    }

    public static void main(String[] args) throws IOException {
        StringBuilder sb = new StringBuilder();
        int n;
        while ((n = next()) > 0) {
            int[] a = new int[n];
            for (int i = 0; i < n; i++) a[i] = next();
            Arrays.sort(a);
            boolean mirrored = n % 2 == 0;
            for (int i = 0; mirrored && i < n; i += 2) mirrored = a[i] == a[i + 1];
            sb.append(mirrored ? "0\n" : "1\n");
        }
        System.out.print(sb);
    }
}
