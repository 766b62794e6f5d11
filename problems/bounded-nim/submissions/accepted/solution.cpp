// A pile of a stones with moves of 1..k behaves like a Nim pile of
// a mod (k + 1); the first player wins when the XOR of these is non-zero.
#include <cstdio>

int main() {
    int n;
    long long k;
    if (scanf("%d %lld", &n, &k) != 2) return 0;
    long long x = 0, a;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a);
        x ^= a % (k + 1);
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
