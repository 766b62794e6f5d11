// Mistake: golden ratio and product in single precision (float). Only about
// seven significant digits survive, so floor(k*phi) is off for most k above
// a few million.
import java.io.*;
import java.util.*;

public class Wythoff {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder all = new StringBuilder();
        String line;
        while ((line = br.readLine()) != null) all.append(line).append(' ');
        StringTokenizer st = new StringTokenizer(all.toString());
        StringBuilder sb = new StringBuilder();
        float phi = (1f + (float) Math.sqrt(5f)) / 2f;
        while (st.hasMoreTokens()) {
            long a = Long.parseLong(st.nextToken());
            if (!st.hasMoreTokens()) break;
            long b = Long.parseLong(st.nextToken());
            if (a > b) { long t = a; a = b; b = t; }
            float k = b - a;
            long cold = (long) (k * phi);
            sb.append(cold == a ? "0\n" : "1\n");
        }
        System.out.print(sb);
    }
}
