// Mistake: always chooses "first", even from a lost pair such as "3 5",
// where every move lets the judge back onto a lost pair.
import java.io.*;
import java.math.BigInteger;
import java.util.StringTokenizer;

public class Main {
    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    static StringTokenizer tok = new StringTokenizer("");
    static final BigInteger FIVE = BigInteger.valueOf(5);

    static long next() throws IOException {
        while (!tok.hasMoreTokens()) {
            String line = in.readLine();
            if (line == null) System.exit(0);
            tok = new StringTokenizer(line);
        }
        long v = Long.parseLong(tok.nextToken());
        if (v < 0) System.exit(0);
        return v;
    }

    static long root5(long x) {
        BigInteger b = BigInteger.valueOf(x);
        return b.multiply(b).multiply(FIVE).sqrt().longValueExact();
    }

    static long cold(long k) {
        return (k + root5(k)) / 2;
    }

    public static void main(String[] args) throws IOException {
        long games = next();
        for (long t = 0; t < games; t++) {
            long a = next(), b = next();
            boolean mine = true;
            System.out.println("first");
            System.out.flush();
            while (a > 0 || b > 0) {
                if (mine) {
                    long lo = Math.min(a, b), hi = Math.max(a, b), c = cold(hi - lo);
                    if (lo > c) {
                        long d = lo - c;
                        a -= d;
                        b -= d;
                    } else {
                        long nh;
                        if (lo == c) {
                            nh = 0; // give up: empty the larger heap
                        } else {
                            long f = (root5(lo) - lo) / 2;
                            nh = cold(f + 1) == lo ? lo + f + 1 : f;
                        }
                        if (a <= b) b = nh; else a = nh;
                    }
                    System.out.println(a + " " + b);
                    System.out.flush();
                } else {
                    a = next();
                    b = next();
                }
                mine = !mine;
            }
        }
    }
}
