/* Wrong: chooses its side well, but then always knocks down a single pin
   at the end of the first row that has any. */
#include <stdio.h>

int g[128];
int rows[2000];

int main(void) {
    for (int n = 1; n < 128; n++) {
        int seen[256] = {0};
        for (int k = 1; k <= 2 && k <= n; k++)
            for (int x = 0; x <= n - k; x++) seen[g[x] ^ g[n - k - x]] = 1;
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    long long t;
    if (scanf("%lld", &t) != 1) return 0;
    for (long long game = 0; game < t; game++) {
        int n;
        if (scanf("%d", &n) != 1 || n < 0) return 0;
        int count = n, x = 0;
        for (int i = 0; i < n; i++) {
            scanf("%d", &rows[i]);
            x ^= g[rows[i]];
        }
        int mine = x != 0;
        printf("%s\n", mine ? "first" : "second");
        fflush(stdout);
        for (;;) {
            int left = 0;
            for (int i = 0; i < count; i++) left += rows[i];
            if (left == 0) break;
            if (mine) {
                int i = 0;
                while (rows[i] == 0) i++;
                printf("%d %d 0\n", i + 1, rows[i] - 1);
                fflush(stdout);
                rows[i]--;
            } else {
                int i, l, r;
                if (scanf("%d", &i) != 1 || i < 0) return 0;
                scanf("%d %d", &l, &r);
                rows[i - 1] = l;
                if (r > 0) rows[count++] = r;
            }
            mine = !mine;
        }
    }
    return 0;
}
