// Wrong: starts the period at 59 pins, missing the last exception, 70.
#include <cstdio>

int g[100];

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
        x ^= a < 59 ? g[a] : g[59 + (a - 59) % 12];
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
