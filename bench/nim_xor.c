/* A correct solution of nim (the XOR of the heaps), the program the start-up
 * benchmarks judge and run bare (bench/startup.sh, startup_breakdown.sh). */
#include <stdio.h>
int main(void) {
    int n;
    long long x = 0, a;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        if (scanf("%lld", &a) != 1) return 1;
        x ^= a;
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
