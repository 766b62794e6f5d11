// Dawson's Kayles: values by mex up to 200 pins, period 34 from 53 on.
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        int[] g = new int[200];
        for (int n = 2; n < 200; n++) {
            boolean[] seen = new boolean[64];
            int r = n - 2;
            for (int x = 0; x <= r; x++) seen[g[x] ^ g[r - x]] = true;
            int v = 0;
            while (seen[v]) v++;
            g[n] = v;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StreamTokenizer st = new StreamTokenizer(in);
        st.resetSyntax();
        st.wordChars('0', '9');
        st.whitespaceChars(0, ' ');
        st.nextToken();
        int t = Integer.parseInt(st.sval);
        StringBuilder out = new StringBuilder();
        for (int c = 0; c < t; c++) {
            st.nextToken();
            int n = Integer.parseInt(st.sval);
            int x = 0;
            for (int i = 0; i < n; i++) {
                st.nextToken();
                long a = Long.parseLong(st.sval);
                x ^= a < 200 ? g[(int) a] : g[(int) (53 + (a - 53) % 34)];
            }
            out.append(x != 0 ? "First" : "Second").append('\n');
        }
        System.out.print(out);
    }
}
