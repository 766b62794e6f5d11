// Wrong: takes the period 34 from the first pin, as if the values had no
// exceptions below 53.
#include <cstdio>

int g[200];

int main() {
    for (int n = 2; n < 200; n++) {
        bool seen[64] = {false};
        int r = n - 2;
        for (int x = 0; x <= r; x++) seen[g[x] ^ g[r - x]] = true;
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        int x = 0;
        for (int i = 0; i < n; i++) {
            long long a;
            if (scanf("%lld", &a) != 1) return 1;
            x ^= g[102 + a % 34];
        }
        puts(x ? "First" : "Second");
    }
    return 0;
}
