// Mistake: reads games until the end of the input and takes the final 0 for
// a game with no piles, printing an extra line.
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = br.readLine()) != null) all.append(line).append(' ');
        StringTokenizer st = new StringTokenizer(all.toString());
        StringBuilder sb = new StringBuilder();
        while (st.hasMoreTokens()) {
            int n = Integer.parseInt(st.nextToken());
            int[] a = new int[n];
            for (int i = 0; i < n; i++) a[i] = Integer.parseInt(st.nextToken());
            Arrays.sort(a);
            boolean mirrored = n % 2 == 0;
            for (int i = 0; mirrored && i < n; i += 2) mirrored = a[i] == a[i + 1];
            sb.append(mirrored ? "0\n" : "1\n");
        }
        System.out.print(sb);
    }
}
