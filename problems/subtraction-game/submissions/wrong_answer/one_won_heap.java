// Wrong: the first player wins if some heap alone is won (its size is not
// 0 or 2 modulo 7): heaps are not looked at together.
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
        boolean won = false;
        for (int i = 0; i < n; i++) {
            long r = Long.parseLong(st.nextToken()) % 7;
            if (r != 0 && r != 2) won = true;
        }
        System.out.println(won ? "First" : "Second");
    }
}
