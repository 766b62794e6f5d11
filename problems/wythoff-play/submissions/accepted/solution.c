/* Wythoff's game, played. The lost pairs are (c(k), c(k) + k) in either
   order with c(k) = floor(k*phi) = (k + isqrt(5k^2)) / 2, computed exactly
   in 128 bits (heaps reach 10^18; a double is far too coarse). From a won
   pair lo <= hi, k = hi - lo: if lo > c(k) take lo - c(k) from both heaps;
   if lo < c(k), hi goes down to lo's partner in its own lost pair. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;
typedef unsigned __int128 u128;

static u128 isqrt(u128 n) {
    u128 x = (u128)sqrtl((long double)n);
    while (x * x > n) x--;
    while ((x + 1) * (x + 1) <= n) x++;
    return x;
}

static u64 cold(u64 k) { return (u64)(((u128)k + isqrt((u128)5 * k * k)) / 2); }

static u64 next(void) {
    long long v;
    if (scanf("%lld", &v) != 1 || v < 0) exit(0); /* end of input or -1 */
    return (u64)v;
}

int main(void) {
    u64 t, games = next();
    for (t = 0; t < games; t++) {
        u64 a = next(), b = next();
        u64 lo = a < b ? a : b, hi = a < b ? b : a;
        int mine = cold(hi - lo) != lo;
        printf(mine ? "first\n" : "second\n");
        fflush(stdout);
        while (a > 0 || b > 0) {
            if (mine) {
                u64 c, nh;
                lo = a < b ? a : b;
                hi = a < b ? b : a;
                c = cold(hi - lo);
                if (lo > c) {
                    a -= lo - c;
                    b -= lo - c;
                } else {
                    if (lo == c) {
                        nh = hi - 1; /* lost position: take one stone */
                    } else {
                        u64 f = (u64)((isqrt((u128)5 * lo * lo) - lo) / 2); /* floor(lo / phi) */
                        nh = cold(f + 1) == lo ? lo + f + 1 : f;
                    }
                    if (a <= b) b = nh; else a = nh;
                }
                printf("%llu %llu\n", a, b);
                fflush(stdout);
            } else {
                a = next();
                b = next();
            }
            mine = !mine;
        }
    }
    return 0;
}
