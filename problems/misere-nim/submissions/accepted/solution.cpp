// Misère Nim: with single stones only, the first player wins exactly when
// their number is even; otherwise exactly when the XOR is non-zero.
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    long long x = 0, a;
    bool all_single = true;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a);
        x ^= a;
        if (a != 1) all_single = false;
    }
    bool first = all_single ? n % 2 == 0 : x != 0;
    puts(first ? "X" : "Y");
    return 0;
}
