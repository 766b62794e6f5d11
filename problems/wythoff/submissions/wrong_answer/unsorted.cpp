// Mistake: assumes the smaller heap comes first. For a line "b a" with b > a
// the difference is negative and a losing pair written larger-first is
// reported as a win.
#include <cstdio>
#include <cmath>

int main() {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        long long k = b - a;
        long long s = (long long)sqrtl((long double)(5 * k * k));
        while (s * s > 5 * k * k) s--;
        while ((s + 1) * (s + 1) <= 5 * k * k) s++;
        long long cold = (k + s) / 2;
        if (k < 0) cold = -1;  // "cannot be a losing pair"
        puts(cold == a ? "0" : "1");
    }
    return 0;
}
