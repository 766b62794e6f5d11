// Normal Nim, played: move first exactly when the XOR of the piles is
// non-zero; each move brings the XOR back to zero (pile i -> a_i ^ s).
import java.io.*;
import java.util.StringTokenizer;

public class Main {
    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    static StringTokenizer tok = new StringTokenizer("");
    static PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false);

    /** The next number from the judge; the run ends on -1 or end of input. */
    static long next() throws IOException {
        while (!tok.hasMoreTokens()) {
            String line = in.readLine();
            if (line == null) System.exit(0);
            tok = new StringTokenizer(line);
        }
        long v = Long.parseLong(tok.nextToken());
        if (v < 0) System.exit(0);
        return v;
    }

    static void say(String line) {
        out.print(line + "\n");
        out.flush();
    }

    public static void main(String[] args) throws IOException {
        long games = next();
        for (long t = 0; t < games; t++) {
            int n = (int) next();
            long[] a = new long[n];
            long s = 0;
            int left = 0;
            for (int i = 0; i < n; i++) {
                a[i] = next();
                s ^= a[i];
                if (a[i] > 0) left++;
            }
            boolean mine = s != 0;
            say(mine ? "first" : "second");
            while (left > 0) {
                int i = 0;
                long x;
                if (mine) {
                    s = 0;
                    for (long v : a) s ^= v;
                    while (i < n && (a[i] ^ s) >= a[i]) i++;
                    if (i == n) { // lost position: take one stone anywhere
                        i = 0;
                        while (a[i] == 0) i++;
                        x = a[i] - 1;
                    } else {
                        x = a[i] ^ s;
                    }
                    say((i + 1) + " " + x);
                } else {
                    i = (int) next() - 1;
                    x = next();
                }
                if (a[i] > 0 && x == 0) left--;
                a[i] = x;
                mine = !mine;
            }
        }
    }
}
