// Exact Beatty-sequence test: a <= b loses iff a == floor(k*phi) with k = b - a,
// and floor(k*phi) = (k + isqrt(5k^2)) / 2; 5k^2 <= 5e18 fits in 64 bits.
#include <cmath>
#include <cstdio>

typedef unsigned long long u64;

static u64 isqrt(u64 n) {
    u64 x = (u64)sqrtl((long double)n);
    while (x * x > n) x--;
    while ((x + 1) * (x + 1) <= n) x++;
    return x;
}

int main() {
    long long a, b;
    static char out[1 << 21];
    int len = 0;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a > b) { long long t = a; a = b; b = t; }
        u64 k = (u64)(b - a);
        u64 cold = (k + isqrt(5 * k * k)) / 2;
        out[len++] = cold == (u64)a ? '0' : '1';
        out[len++] = '\n';
        if (len > (1 << 21) - 4) { fwrite(out, 1, len, stdout); len = 0; }
    }
    fwrite(out, 1, len, stdout);
    return 0;
}
