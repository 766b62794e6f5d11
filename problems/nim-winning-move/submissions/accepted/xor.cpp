// Nim-sum s; if s != 0 some pile has s's top bit, and a_i xor s < a_i there.
#include <cstdio>
#include <vector>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    std::vector<long long> a(n);
    long long s = 0;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a[i]);
        s ^= a[i];
    }
    if (s == 0) {
        puts("lose");
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if ((a[i] ^ s) < a[i]) {
            printf("%d %lld\n", i + 1, a[i] ^ s);
            return 0;
        }
    }
    return 0;
}
