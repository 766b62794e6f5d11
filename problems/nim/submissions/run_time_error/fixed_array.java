// Mistake: stores the piles in an array of 50, but N can reach 100; the
// array index goes out of bounds and the program dies with an exception.
import java.io.*;
import java.util.*;

public class Nim {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StreamTokenizer st = new StreamTokenizer(br);
        st.nextToken();
        int n = (int) st.nval;
        int[] a = new int[50];
        for (int i = 0; i < n; i++) {
            st.nextToken();
            a[i] = (int) st.nval;
        }
        int x = 0;
        for (int i = 0; i < n; i++) x ^= a[i];
        System.out.println(x != 0 ? "Alice" : "Bob");
    }
}
