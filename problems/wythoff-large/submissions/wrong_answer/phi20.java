// Mistake: multiplies exactly with BigDecimal, but by phi written out to only
// 20 significant digits. The missing digits are worth about 0.02 for k near
// 4e17, so floor(k*phi) is off by one for many large pairs.
import java.io.*;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        BigDecimal phi = new BigDecimal("1.6180339887498948482");
        StringBuilder sb = new StringBuilder();
        List<Long> nums = new ArrayList<>();
        String line;
        while ((line = br.readLine()) != null) {
            StringTokenizer st = new StringTokenizer(line);
            while (st.hasMoreTokens()) nums.add(Long.parseLong(st.nextToken()));
        }
        for (int i = 0; i + 1 < nums.size(); i += 2) {
            long a = Math.min(nums.get(i), nums.get(i + 1));
            long b = Math.max(nums.get(i), nums.get(i + 1));
            long cold = BigDecimal.valueOf(b - a).multiply(phi).setScale(0, RoundingMode.FLOOR).longValue();
            sb.append(cold == a ? "0\n" : "1\n");
        }
        System.out.print(sb);
    }
}
