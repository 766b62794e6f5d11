/* Mistake: avoids floating point by scaling phi to nine decimals
   (1.618033988). The truncation error, about 7.5e-10 per unit of k, shifts
   floor(k*phi) by one for many k in the hundreds of millions. */
#include <stdio.h>

int main(void) {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a > b) { long long t = a; a = b; b = t; }
        long long k = b - a;
        long long cold = k * 1618033988LL / 1000000000LL;
        puts(cold == a ? "0" : "1");
    }
    return 0;
}
