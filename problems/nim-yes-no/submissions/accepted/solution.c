/* The first player wins exactly when the XOR of the piles is non-zero. */
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    long long x = 0, a;
    for (int i = 0; i < n; i++) {
        if (scanf("%lld", &a) != 1) break;
        x ^= a;
    }
    puts(x ? "Yes" : "No");
    return 0;
}
