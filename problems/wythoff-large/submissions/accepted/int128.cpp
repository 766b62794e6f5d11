// Exact Beatty-sequence test: a <= b loses iff a == floor(k*phi), k = b - a,
// with floor(k*phi) = (k + isqrt(5k^2)) / 2 computed in 128-bit integers.
#include <cmath>
#include <cstdio>

typedef unsigned long long u64;
typedef unsigned __int128 u128;

static u128 isqrt(u128 n) {
    u128 x = (u128)sqrtl((long double)n);
    while (x * x > n) x--;
    while ((x + 1) * (x + 1) <= n) x++;
    return x;
}

int main() {
    u64 a, b;
    static char out[1 << 21];
    int len = 0;
    while (scanf("%llu %llu", &a, &b) == 2) {
        if (a > b) { u64 t = a; a = b; b = t; }
        u128 k = b - a;
        u128 cold = (k + isqrt(5 * k * k)) / 2;
        out[len++] = cold == (u128)a ? '0' : '1';
        out[len++] = '\n';
        if (len > (1 << 21) - 4) { fwrite(out, 1, len, stdout); len = 0; }
    }
    fwrite(out, 1, len, stdout);
    return 0;
}
