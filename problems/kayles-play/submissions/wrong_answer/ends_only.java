// Wrong: never splits a row: it values rows as in "take 1 or 2" (a mod 3)
// and only knocks pins off the end of a row.
import java.io.*;
import java.util.*;

public class Main {
    static StreamTokenizer in = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));

    static long next() throws IOException {
        in.nextToken();
        return (long) in.nval;
    }

    public static void main(String[] args) throws IOException {
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        long t = next();
        for (long game = 0; game < t; game++) {
            long n = next();
            if (n < 0) return;
            List<Integer> rows = new ArrayList<>();
            for (int i = 0; i < n; i++) rows.add((int) next());
            int x = 0;
            for (int a : rows) x ^= a % 3;
            boolean mine = x != 0;
            out.println(mine ? "first" : "second");
            out.flush();
            while (rows.stream().anyMatch(r -> r > 0)) {
                int i, l, r;
                if (mine) {
                    x = 0;
                    for (int a : rows) x ^= a % 3;
                    i = -1;
                    l = 0;
                    for (int j = 0; j < rows.size() && i < 0; j++) {
                        int a = rows.get(j);
                        for (int k = 1; k <= 2 && k <= a; k++)
                            if ((x ^ a % 3 ^ (a - k) % 3) == 0) {
                                i = j;
                                l = a - k;
                                break;
                            }
                    }
                    if (i < 0)
                        for (int j = 0; j < rows.size(); j++)
                            if (rows.get(j) > 0) {
                                i = j;
                                l = rows.get(j) - 1;
                                break;
                            }
                    r = 0;
                    out.println((i + 1) + " " + l + " " + r);
                    out.flush();
                } else {
                    long j = next();
                    if (j < 0) return;
                    i = (int) j - 1;
                    l = (int) next();
                    r = (int) next();
                }
                rows.set(i, l);
                if (r > 0) rows.add(r);
                mine = !mine;
            }
        }
    }
}
