// Nim: the first player wins exactly when the XOR of the piles is non-zero.
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    long long x = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        scanf("%lld", &a);
        x ^= a;
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
