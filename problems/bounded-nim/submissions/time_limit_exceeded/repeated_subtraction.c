/* Too slow: reduces each pile modulo k + 1 by subtracting k + 1 again and
   again. Correct, but with k = 1 and piles of 10^9 that is 5 * 10^8 steps
   per pile. */
#include <stdio.h>

int main(void) {
    int n;
    long long k, a, x = 0;
    scanf("%d %lld", &n, &k);
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a);
        while (a > k) a -= k + 1;
        x ^= a;
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
