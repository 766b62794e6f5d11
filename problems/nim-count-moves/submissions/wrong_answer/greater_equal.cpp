// Mistake: counts piles with (a_i xor s) <= a_i. In a losing position
// (s = 0) every pile passes, so it prints n instead of 0.
#include <cstdio>
#include <vector>

int main() {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) {
        std::vector<long long> a(n);
        long long s = 0;
        for (int i = 0; i < n; i++) { scanf("%lld", &a[i]); s ^= a[i]; }
        int count = 0;
        for (int i = 0; i < n; i++) if ((a[i] ^ s) <= a[i]) count++;
        printf("%d\n", count);
    }
    return 0;
}
