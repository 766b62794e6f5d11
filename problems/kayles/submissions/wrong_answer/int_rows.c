/* Wrong: keeps a row's length in an int; rows beyond 2^31 pins wrap and
   land in the wrong class of the period. */
#include <stdio.h>

int g[100];

int main(void) {
    for (int n = 1; n < 100; n++) {
        int seen[128] = {0};
        for (int k = 1; k <= 2 && k <= n; k++) {
            int r = n - k;
            for (int x = 0; x <= r; x++) seen[g[x] ^ g[r - x]] = 1;
        }
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    long long n, big;
    if (scanf("%lld", &n) != 1) return 1;
    int x = 0;
    for (long long i = 0; i < n; i++) {
        if (scanf("%lld", &big) != 1) return 1;
        int a = (int)big;
        if (a < 0) a = -a;
        x ^= a < 100 ? g[a] : g[71 + (a - 71) % 12];
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
