// Wrong: lets a throw knock down one pin as well (plain Kayles).
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        int[] g = new int[200];
        for (int n = 1; n < 200; n++) {
            boolean[] seen = new boolean[64];
            for (int k = 1; k <= 2 && k <= n; k++) {
                int r = n - k;
                for (int x = 0; x <= r; x++) seen[g[x] ^ g[r - x]] = true;
            }
            int v = 0;
            while (seen[v]) v++;
            g[n] = v;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) all.append(line).append(' ');
        StringTokenizer st = new StringTokenizer(all.toString());
        int t = Integer.parseInt(st.nextToken());
        StringBuilder out = new StringBuilder();
        for (int c = 0; c < t; c++) {
            int n = Integer.parseInt(st.nextToken());
            int x = 0;
            for (int i = 0; i < n; i++) {
                long a = Long.parseLong(st.nextToken());
                x ^= a < 200 ? g[(int) a] : g[(int) (71 + (a - 71) % 12)];
            }
            out.append(x != 0 ? "First" : "Second").append('\n');
        }
        System.out.print(out);
    }
}
