// Mistake: treats every run of empty cells (between all neighbours and before
// the first chessman) as a Nim pile, not only every other one.
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = br.readLine()) != null) all.append(line).append(' ');
        StringTokenizer st = new StringTokenizer(all.toString());
        int t = Integer.parseInt(st.nextToken());
        StringBuilder sb = new StringBuilder();
        while (t-- > 0) {
            int n = Integer.parseInt(st.nextToken());
            int[] p = new int[n];
            for (int i = 0; i < n; i++) p[i] = Integer.parseInt(st.nextToken());
            Arrays.sort(p);
            int s = 0;
            for (int i = 0; i < n; i++) s ^= p[i] - (i > 0 ? p[i - 1] : 0) - 1;
            sb.append(s != 0 ? "Georgia will win\n" : "Bob will win\n");
        }
        System.out.print(sb);
    }
}
