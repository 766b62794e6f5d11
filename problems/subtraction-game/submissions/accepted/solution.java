// The Grundy values of one heap repeat with period 7; XOR them over the heaps.
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in), 1 << 16);
        int[] g = {0, 1, 0, 1, 2, 3, 2};
        StringBuilder all = new StringBuilder();
        char[] buf = new char[1 << 16];
        int r;
        while ((r = in.read(buf)) > 0) all.append(buf, 0, r);
        StringTokenizer st = new StringTokenizer(all.toString());
        int n = Integer.parseInt(st.nextToken());
        int x = 0;
        for (int i = 0; i < n; i++) {
            long a = Long.parseLong(st.nextToken());
            x ^= g[(int) (a % 7)];
        }
        System.out.println(x != 0 ? "First" : "Second");
    }
}
