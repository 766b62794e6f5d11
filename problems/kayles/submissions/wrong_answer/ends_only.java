// Wrong: only knocks pins off the ends of a row (never splits one), so it
// plays "take 1 or 2" (a mod 3).
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
        long x = 0;
        for (int i = 0; i < n; i++) x ^= Long.parseLong(st.nextToken()) % 3;
        System.out.println(x != 0 ? "Alice" : "Bob");
    }
}
