// Wythoff's game, played. Lost pairs: (c(k), c(k) + k) in either order,
// c(k) = floor(k * phi) = (k + isqrt(5k^2)) / 2. 5k^2 reaches 5 * 10^36,
// beyond long, so the square root is taken with BigInteger; the heaps
// themselves (at most 10^18) fit in a long.
import java.io.*;
import java.math.BigInteger;
import java.util.StringTokenizer;

public class Main {
    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    static StringTokenizer tok = new StringTokenizer("");
    static final BigInteger FIVE = BigInteger.valueOf(5);

    /** The next number from the judge; the run ends on -1 or end of input. */
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

    /** floor(sqrt(5 x^2)). */
    static long root5(long x) {
        BigInteger b = BigInteger.valueOf(x);
        return b.multiply(b).multiply(FIVE).sqrt().longValueExact();
    }

    /** floor(k * phi), the smaller heap of the k-th lost pair. */
    static long cold(long k) {
        return (k + root5(k)) / 2; // at most 1e18 + 2.3e18 < 2^63
    }

    public static void main(String[] args) throws IOException {
        long games = next();
        for (long t = 0; t < games; t++) {
            long a = next(), b = next();
            boolean mine = cold(Math.abs(a - b)) != Math.min(a, b);
            System.out.println(mine ? "first" : "second");
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
                            nh = hi - 1; // lost position: take one stone
                        } else {
                            long f = (root5(lo) - lo) / 2; // floor(lo / phi)
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
