// Kayles: Grundy values by mex; move first exactly when the XOR of the
// rows' values is not 0, then always leave XOR 0.
import java.io.*;
import java.util.*;

public class Main {
    static int[] g = new int[128];
    static StreamTokenizer in = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));

    static long next() throws IOException {
        in.nextToken();
        return (long) in.nval;
    }

    public static void main(String[] args) throws IOException {
        for (int n = 1; n < 128; n++) {
            boolean[] seen = new boolean[256];
            for (int k = 1; k <= 2 && k <= n; k++)
                for (int x = 0; x <= n - k; x++) seen[g[x] ^ g[n - k - x]] = true;
            int v = 0;
            while (seen[v]) v++;
            g[n] = v;
        }
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        long t = next();
        for (long game = 0; game < t; game++) {
            long n = next();
            if (n < 0) return;
            List<Integer> rows = new ArrayList<>();
            for (int i = 0; i < n; i++) rows.add((int) next());
            boolean mine = xor(rows) != 0;
            out.println(mine ? "first" : "second");
            out.flush();
            while (rows.stream().anyMatch(r -> r > 0)) {
                int i, l, r;
                if (mine) {
                    int[] m = winning(rows);
                    i = m[0];
                    l = m[1];
                    r = m[2];
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

    static int xor(List<Integer> rows) {
        int x = 0;
        for (int a : rows) x ^= g[a];
        return x;
    }

    static int[] winning(List<Integer> rows) {
        int x = xor(rows);
        for (int i = 0; i < rows.size(); i++) {
            int a = rows.get(i), want = x ^ g[a];
            for (int k = 1; k <= 2 && k <= a; k++)
                for (int l = 0; l <= a - k; l++)
                    if ((g[l] ^ g[a - k - l]) == want) return new int[] {i, l, a - k - l};
        }
        return new int[] {0, 0, 0};
    }
}
