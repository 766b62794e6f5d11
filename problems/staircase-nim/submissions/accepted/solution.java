// Sort; pair chessmen from the right (an odd first one pairs with the wall at
// 0); the empty cells inside each pair are Nim piles.
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

    static int next() throws IOException {
        int c = read();
        while (c != -1 && (c < '0' || c > '9')) c = read();
        int v = 0;
        while (c >= '0' && c <= '9') { v = v * 10 + (c - '0'); c = read(); }
        return v;
    }

    public static void main(String[] args) throws IOException {
        int t = next();
        StringBuilder sb = new StringBuilder();
        while (t-- > 0) {
            int n = next();
            int[] p = new int[n];
            for (int i = 0; i < n; i++) p[i] = next();
            Arrays.sort(p);
            int s = 0;
            for (int i = n - 1; i >= 0; i -= 2) s ^= p[i] - (i >= 1 ? p[i - 1] : 0) - 1;
            sb.append(s != 0 ? "Georgia will win\n" : "Bob will win\n");
        }
        System.out.print(sb);
    }
}
