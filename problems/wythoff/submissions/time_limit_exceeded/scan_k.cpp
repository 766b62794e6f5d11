// Mistake: does not see that the index of a losing pair is b - a; for every
// game it scans k = 0, 1, 2, ... until floor(k*phi) reaches the smaller heap.
// Each floor is exact (integer square root), but the scan is linear in the
// heap size, far too slow for heaps near 10^9.
#include <cmath>
#include <cstdio>

typedef unsigned long long u64;

static u64 floor_k_phi(u64 k) {
    u64 n = 5 * k * k;
    u64 s = (u64)sqrtl((long double)n);
    while (s * s > n) s--;
    while ((s + 1) * (s + 1) <= n) s++;
    return (k + s) / 2;
}

int main() {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a > b) { long long t = a; a = b; b = t; }
        bool lose = false;
        for (u64 k = 0;; k++) {
            u64 ak = floor_k_phi(k);
            if (ak > (u64)a) break;
            if (ak == (u64)a) { lose = (ak + k == (u64)b); break; }
        }
        puts(lose ? "0" : "1");
    }
    return 0;
}
