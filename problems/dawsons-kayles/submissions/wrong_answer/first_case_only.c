/* Wrong: answers the first position and stops. */
#include <stdio.h>

int g[200];

int main(void) {
    for (int n = 2; n < 200; n++) {
        int seen[64] = {0};
        int r = n - 2;
        for (int x = 0; x <= r; x++) seen[g[x] ^ g[r - x]] = 1;
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    int t, n;
    if (scanf("%d %d", &t, &n) != 2) return 1;
    int x = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        if (scanf("%lld", &a) != 1) return 1;
        x ^= a < 200 ? g[a] : g[53 + (a - 53) % 34];
    }
    puts(x ? "First" : "Second");
    return 0;
}
