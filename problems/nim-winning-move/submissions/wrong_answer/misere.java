// Mistake: plays misere Nim (taking the last stone loses). When every pile
// but one has a single stone it leaves an odd number of single-stone piles,
// and with only single-stone piles it says "lose" exactly when n is odd.
import java.io.*;
import java.util.*;

public class Misere {
    public static void main(String[] args) throws IOException {
        StreamTokenizer st = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        st.nextToken();
        int n = (int) st.nval;
        long[] a = new long[n];
        long s = 0;
        int big = 0, bigIndex = -1;
        for (int i = 0; i < n; i++) {
            st.nextToken();
            a[i] = (long) st.nval;
            s ^= a[i];
            if (a[i] > 1) { big++; bigIndex = i; }
        }
        if (big == 0) {
            System.out.println(n % 2 == 1 ? "lose" : "1 0");
            return;
        }
        if (big == 1) {
            int ones = n - 1;
            long leave = ones % 2 == 0 ? 1 : 0;
            System.out.println((bigIndex + 1) + " " + leave);
            return;
        }
        if (s == 0) { System.out.println("lose"); return; }
        for (int i = 0; i < n; i++)
            if ((a[i] ^ s) < a[i]) { System.out.println((i + 1) + " " + (a[i] ^ s)); return; }
    }
}
