// Mistake: assumes the boxes come sorted in decreasing order and decides
// "every box holds one candy" from the first box alone. For 1 2 1 it takes
// the single-candy branch and answers Brother, but John wins.
import java.util.Scanner;

public class FirstBox {
    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        int t = sc.nextInt();
        StringBuilder out = new StringBuilder();
        while (t-- > 0) {
            int n = sc.nextInt();
            int[] a = new int[n];
            int x = 0;
            for (int i = 0; i < n; i++) {
                a[i] = sc.nextInt();
                x ^= a[i];
            }
            boolean first = a[0] == 1 ? n % 2 == 0 : x != 0;
            out.append(first ? "John\n" : "Brother\n");
        }
        System.out.print(out);
    }
}
