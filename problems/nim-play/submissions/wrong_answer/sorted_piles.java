// Mistake: sorts the piles when it reads them, so its pile numbers (and its
// reading of the judge's) refer to the sorted order, not the judge's. From
// "2 3 1" it leaves 1 stone in pile 2 of the sorted [1, 3]: the judge's
// pile 2 holds 1 stone already, an illegal move.
import java.io.*;
import java.util.Arrays;
import java.util.StringTokenizer;

public class Main {
    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    static StringTokenizer tok = new StringTokenizer("");

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

    public static void main(String[] args) throws IOException {
        long games = next();
        for (long t = 0; t < games; t++) {
            int n = (int) next();
            long[] a = new long[n];
            for (int i = 0; i < n; i++) a[i] = next();
            Arrays.sort(a);
            long s = 0;
            for (long v : a) s ^= v;
            boolean mine = s != 0;
            System.out.println(mine ? "first" : "second");
            System.out.flush();
            while (Arrays.stream(a).anyMatch(v -> v > 0)) {
                int i = 0;
                long x;
                if (mine) {
                    s = 0;
                    for (long v : a) s ^= v;
                    while (i < n && (a[i] ^ s) >= a[i]) i++;
                    if (i == n) {
                        i = 0;
                        while (a[i] == 0) i++;
                        x = a[i] - 1;
                    } else {
                        x = a[i] ^ s;
                    }
                    System.out.println((i + 1) + " " + x);
                    System.out.flush();
                } else {
                    i = (int) next() - 1;
                    x = next();
                }
                a[i] = x;
                mine = !mine;
            }
        }
    }
}
