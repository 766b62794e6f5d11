// Mistake: writes through a PrintWriter over a BufferedWriter for speed and
// never flushes it, so "first"/"second" stays in the buffer while the
// program waits for the judge, which is waiting for it.
import java.io.*;
import java.util.StringTokenizer;

public class Main {
    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    static StringTokenizer tok = new StringTokenizer("");
    static PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));

    static long next() throws IOException {
        while (!tok.hasMoreTokens()) {
            String line = in.readLine();
            if (line == null) { out.close(); System.exit(0); }
            tok = new StringTokenizer(line);
        }
        long v = Long.parseLong(tok.nextToken());
        if (v < 0) { out.close(); System.exit(0); }
        return v;
    }

    static long[] winningMove(long[] a) {
        int big = 0, ones = 0, lastBig = -1, aOne = -1;
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s ^= a[i];
            if (a[i] > 1) { big++; lastBig = i; }
            if (a[i] == 1) { ones++; aOne = i; }
        }
        if (big == 1) return new long[] {lastBig, ones % 2 == 1 ? 0 : 1};
        if (big == 0) return ones % 2 == 0 ? new long[] {aOne, 0} : null;
        for (int i = 0; i < a.length; i++)
            if ((a[i] ^ s) < a[i]) return new long[] {i, a[i] ^ s};
        return null;
    }

    public static void main(String[] args) throws IOException {
        long games = next();
        for (long t = 0; t < games; t++) {
            int n = (int) next();
            long[] a = new long[n];
            int left = 0;
            for (int i = 0; i < n; i++) {
                a[i] = next();
                if (a[i] > 0) left++;
            }
            boolean mine = winningMove(a) != null;
            out.println(mine ? "first" : "second");
            while (left > 0) {
                int i;
                long x;
                if (mine) {
                    long[] m = winningMove(a);
                    if (m == null) {
                        i = 0;
                        while (a[i] == 0) i++;
                        x = a[i] - 1;
                    } else {
                        i = (int) m[0];
                        x = m[1];
                    }
                    out.println((i + 1) + " " + x);
                } else {
                    i = (int) next() - 1;
                    x = next();
                }
                if (a[i] > 0 && x == 0) left--;
                a[i] = x;
                mine = !mine;
            }
        }
        out.close();
    }
}
