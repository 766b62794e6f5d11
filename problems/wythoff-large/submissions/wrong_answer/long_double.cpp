// Mistake: floor(k*phi) in 80-bit long double. Its 64-bit mantissa is only a
// few bits more than k*phi needs near 10^18, so pairs whose k is a sum of
// Fibonacci numbers (k*phi extremely close to an integer) are misjudged.
#include <cmath>
#include <cstdio>

int main() {
    const long double phi = (1.0L + sqrtl(5.0L)) / 2.0L;
    unsigned long long a, b;
    while (scanf("%llu %llu", &a, &b) == 2) {
        if (a > b) { unsigned long long t = a; a = b; b = t; }
        unsigned long long k = b - a;
        unsigned long long cold = (unsigned long long)floorl((long double)k * phi);
        puts(cold == a ? "0" : "1");
    }
    return 0;
}
