/* Mistake: floor(k * phi) in double precision. A double holds 53 bits but
   k * phi near 10^18 needs about 60, so lost pairs with heaps near 10^18
   are misjudged: from "618033988749894848 1000000000000000000" (lost for
   the player to move) it chooses first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;

static const double PHI = 1.6180339887498948482;

static u64 next(void) {
    long long v;
    if (scanf("%lld", &v) != 1 || v < 0) exit(0);
    return (u64)v;
}

static u64 cold(u64 k) { return (u64)floor((double)k * PHI); }

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
                        nh = 0; /* give up: empty the larger heap */
                    } else {
                        u64 f = (u64)floor((double)lo / PHI);
                        nh = cold(f + 1) == lo ? lo + f + 1 : f;
                        if (nh >= hi) nh = 0;
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
