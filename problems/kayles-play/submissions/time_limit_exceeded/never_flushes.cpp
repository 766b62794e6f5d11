// Plays well but never flushes its output: the judge waits for a line
// that stays in the program's buffer, and the run ends idle.
#include <cstdio>
#include <vector>
using namespace std;

int g[128];

int main() {
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    for (int n = 1; n < 128; n++) {
        bool seen[256] = {false};
        for (int k = 1; k <= 2 && k <= n; k++)
            for (int x = 0; x <= n - k; x++) seen[g[x] ^ g[n - k - x]] = true;
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    long long t;
    if (scanf("%lld", &t) != 1) return 0;
    for (long long game = 0; game < t; game++) {
        int n;
        if (scanf("%d", &n) != 1 || n < 0) return 0;
        vector<int> rows(n);
        int x = 0;
        for (auto &r : rows) {
            scanf("%d", &r);
            x ^= g[r];
        }
        bool mine = x != 0;
        printf("%s\n", mine ? "first" : "second");
        for (;;) {
            bool any = false;
            for (int r : rows) any |= r > 0;
            if (!any) break;
            if (mine) {
                x = 0;
                for (int r : rows) x ^= g[r];
                bool done = false;
                for (size_t i = 0; i < rows.size() && !done; i++) {
                    int a = rows[i], want = x ^ g[a];
                    for (int k = 1; k <= 2 && k <= a && !done; k++)
                        for (int l = 0; l <= a - k && !done; l++)
                            if ((g[l] ^ g[a - k - l]) == want) {
                                printf("%zu %d %d\n", i + 1, l, a - k - l);
                                rows[i] = l;
                                if (a - k - l > 0) rows.push_back(a - k - l);
                                done = true;
                            }
                }
            } else {
                int i, l, r;
                if (scanf("%d", &i) != 1 || i < 0) return 0;
                scanf("%d %d", &l, &r);
                rows[i - 1] = l;
                if (r > 0) rows.push_back(r);
            }
            mine = !mine;
        }
    }
    return 0;
}
