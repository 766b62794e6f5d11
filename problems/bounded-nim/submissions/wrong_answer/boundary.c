/* Mistake: reduces a pile only when it is larger than k + 1, so a pile of
   exactly k + 1 stones (worth nothing: whatever is taken, the opponent
   empties it) is counted as k + 1. */
#include <stdio.h>

int main(void) {
    int n;
    long long k, a, x = 0;
    scanf("%d %lld", &n, &k);
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a);
        if (a > k + 1) a %= k + 1;
        x ^= a;
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
