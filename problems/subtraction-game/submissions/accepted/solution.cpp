// The Grundy values of one heap repeat with period 7 (0 1 0 1 2 3 2);
// the position is a sum of heaps: XOR their values.
#include <cstdio>

int main() {
    static const int g[7] = {0, 1, 0, 1, 2, 3, 2};
    unsigned long long n, a;
    if (scanf("%llu", &n) != 1) return 1;
    int x = 0;
    for (unsigned long long i = 0; i < n; i++) {
        if (scanf("%llu", &a) != 1) return 1;
        x ^= g[a % 7];
    }
    puts(x ? "First" : "Second");
    return 0;
}
