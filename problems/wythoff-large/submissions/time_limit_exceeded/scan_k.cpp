// Mistake: does not see that the index of a losing pair is b - a; for every
// game it scans k = 0, 1, 2, ... until floor(k*phi) reaches the smaller heap.
// Each floor is exact (128-bit integer square root), but the scan is linear
// in the heap size.
#include <cmath>
#include <cstdio>

typedef unsigned long long u64;
typedef unsigned __int128 u128;

static u128 floor_k_phi(u128 k) {
    u128 n = 5 * k * k;
    u128 s = (u128)sqrtl((long double)n);
    while (s * s > n) s--;
    while ((s + 1) * (s + 1) <= n) s++;
    return (k + s) / 2;
}

int main() {
    u64 a, b;
    while (scanf("%llu %llu", &a, &b) == 2) {
        if (a > b) { u64 t = a; a = b; b = t; }
        bool lose = false;
        for (u128 k = 0;; k++) {
            u128 ak = floor_k_phi(k);
            if (ak > a) break;
            if (ak == a) { lose = (ak + k == b); break; }
        }
        puts(lose ? "0" : "1");
    }
    return 0;
}
