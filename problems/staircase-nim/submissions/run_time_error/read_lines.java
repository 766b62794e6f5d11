// Mistake: expects T, each N and each list of cells on lines of their own,
// parsing whole lines; stray spaces or a list spread over lines throw.
import java.io.*;
import java.util.Arrays;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        int t = Integer.parseInt(br.readLine());
        StringBuilder sb = new StringBuilder();
        while (t-- > 0) {
            int n = Integer.parseInt(br.readLine());
            String[] parts = br.readLine().split(" ");
            int[] p = new int[n];
            for (int i = 0; i < n; i++) p[i] = Integer.parseInt(parts[i]);
            Arrays.sort(p);
            int s = 0;
            for (int i = n - 1; i >= 0; i -= 2) s ^= p[i] - (i >= 1 ? p[i - 1] : 0) - 1;
            sb.append(s != 0 ? "Georgia will win\n" : "Bob will win\n");
        }
        System.out.print(sb);
    }
}
