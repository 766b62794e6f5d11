// Mistake: expects n alone on the first line and all piles on the second,
// parsing the first line with Integer.parseInt. Spaces around n, or piles
// spread over several lines, throw an exception.
import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(br.readLine());
        String[] parts = br.readLine().split(" ");
        long[] a = new long[n];
        long s = 0;
        for (int i = 0; i < n; i++) {
            a[i] = Long.parseLong(parts[i]);
            s ^= a[i];
        }
        if (s == 0) { System.out.println("lose"); return; }
        for (int i = 0; i < n; i++)
            if ((a[i] ^ s) < a[i]) { System.out.println((i + 1) + " " + (a[i] ^ s)); return; }
    }
}
