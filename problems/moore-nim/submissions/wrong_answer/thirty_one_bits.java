// Wrong: looks at the low 31 binary digits only, as if heaps fit an int.
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) all.append(line).append(' ');
        StringTokenizer st = new StringTokenizer(all.toString());
        int n = Integer.parseInt(st.nextToken());
        long k = Long.parseLong(st.nextToken());
        long[] count = new long[31];
        for (int i = 0; i < n; i++) {
            long a = Long.parseLong(st.nextToken());
            for (int b = 0; b < 31; b++)
                if ((a >> b & 1) == 1) count[b]++;
        }
        boolean lost = true;
        for (int b = 0; b < 31; b++)
            if (count[b] % (k + 1) != 0) lost = false;
        System.out.println(lost ? "Bob" : "Alice");
    }
}
