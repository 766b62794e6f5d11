// Legitimate: a Java program that starts four threads.
import java.io.*;

public class Threads {
    public static void main(String[] args) throws Exception {
        String token = new BufferedReader(new InputStreamReader(System.in)).readLine();
        long[] sums = new long[4];
        Thread[] ts = new Thread[4];
        for (int i = 0; i < 4; i++) {
            final int k = i;
            ts[i] = new Thread(() -> {
                long s = 0;
                for (int j = 0; j < 2_000_000; j++) s += j % (k + 2);
                sums[k] = s;
            });
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        System.out.println(token);
    }
}
