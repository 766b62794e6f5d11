// Kayles: Grundy values by mex up to 100 pins, period 12 from 71 on; XOR.
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        int[] g = new int[100];
        for (int n = 1; n < 100; n++) {
            boolean[] seen = new boolean[128];
            for (int k = 1; k <= 2 && k <= n; k++) {
                int r = n - k;
                for (int x = 0; x <= r; x++) seen[g[x] ^ g[r - x]] = true;
            }
            int v = 0;
            while (seen[v]) v++;
            g[n] = v;
        }
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        long n = next(in);
        int x = 0;
        for (long i = 0; i < n; i++) {
            long a = next(in);
            x ^= a < 100 ? g[(int) a] : g[(int) (71 + (a - 71) % 12)];
        }
        System.out.println(x != 0 ? "Alice" : "Bob");
    }

    static long next(DataInputStream in) throws IOException {
        int c = in.read();
        while (c != -1 && (c < '0' || c > '9')) c = in.read();
        long v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = in.read();
        }
        return v;
    }
}
