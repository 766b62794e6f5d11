/* Mistake: floor(k*phi) in double precision. A double keeps 53 bits, while
   k*phi needs about 60 bits before the point at this size: random losing
   pairs near 10^18 are already misjudged. */
#include <math.h>
#include <stdio.h>

int main(void) {
    unsigned long long a, b;
    while (scanf("%llu %llu", &a, &b) == 2) {
        if (a > b) { unsigned long long t = a; a = b; b = t; }
        unsigned long long k = b - a;
        unsigned long long cold = (unsigned long long)floor(k * (1 + sqrt(5.0)) / 2);
        puts(cold == a ? "0" : "1");
    }
    return 0;
}
