// Wrong idea: treats all piles as one big pile (as in the one-pile game):
// Alice wins when the total is not a multiple of k + 1. Piles are separate:
// with k = 1, piles 1 and 1 (total 2) are lost for Alice, but 1 and 2 are not.
import java.io.*;
import java.util.*;

public class SumMod {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer st = new StringTokenizer("");
        long[] nk = new long[2];
        for (int i = 0; i < 2; i++) {
            while (!st.hasMoreTokens()) st = new StringTokenizer(br.readLine());
            nk[i] = Long.parseLong(st.nextToken());
        }
        long total = 0;
        for (long i = 0; i < nk[0]; i++) {
            while (!st.hasMoreTokens()) st = new StringTokenizer(br.readLine());
            total += Long.parseLong(st.nextToken());
        }
        System.out.println(total % (nk[1] + 1) != 0 ? "Alice" : "Bob");
    }
}
