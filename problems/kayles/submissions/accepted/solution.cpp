// Kayles: the Grundy value of a row comes from the mex over every throw
// (one or two pins, leaving the rest on either side); from 71 pins on the
// values repeat with period 12. A position is a sum of rows: XOR.
#include <cstdio>

int g[100];

int value(unsigned long long a) {
    if (a < 100) return g[a];
    return g[71 + (a - 71) % 12];
}

int main() {
    for (int n = 1; n < 100; n++) {
        bool seen[128] = {false};
        for (int k = 1; k <= 2 && k <= n; k++) {
            int r = n - k;
            for (int x = 0; x <= r; x++) seen[g[x] ^ g[r - x]] = true;
        }
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    unsigned long long n, a;
    if (scanf("%llu", &n) != 1) return 1;
    int x = 0;
    for (unsigned long long i = 0; i < n; i++) {
        if (scanf("%llu", &a) != 1) return 1;
        x ^= value(a);
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
