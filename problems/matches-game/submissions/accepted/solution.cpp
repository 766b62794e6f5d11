// Each game is won by the first player exactly when the XOR of its piles is
// non-zero; scanf skips any whitespace and reports the end of the input.
#include <cstdio>

int main() {
    int m;
    while (scanf("%d", &m) == 1) {
        long long x = 0, a;
        for (int i = 0; i < m; i++) {
            scanf("%lld", &a);
            x ^= a;
        }
        puts(x ? "Yes" : "No");
    }
    return 0;
}
