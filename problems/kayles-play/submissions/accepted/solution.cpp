// Kayles: a row's Grundy value by mex over every throw; move first exactly
// when the XOR of the rows' values is not 0, then always leave XOR 0.
#include <iostream>
#include <vector>
using namespace std;

int g[128];

int main() {
    for (int n = 1; n < 128; n++) {
        bool seen[256] = {false};
        for (int k = 1; k <= 2 && k <= n; k++)
            for (int x = 0; x <= n - k; x++) seen[g[x] ^ g[n - k - x]] = true;
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    long long t;
    if (!(cin >> t)) return 0;
    for (long long game = 0; game < t; game++) {
        long long n;
        if (!(cin >> n) || n < 0) return 0;
        vector<int> rows(n);
        for (auto &r : rows) cin >> r;
        auto xr = [&]() {
            int x = 0;
            for (int r : rows) x ^= g[r];
            return x;
        };
        auto over = [&]() {
            for (int r : rows)
                if (r > 0) return false;
            return true;
        };
        bool mine = xr() != 0;
        cout << (mine ? "first" : "second") << endl;
        while (!over()) {
            if (mine) {
                int x = xr();
                bool done = false;
                for (size_t i = 0; i < rows.size() && !done; i++) {
                    int a = rows[i], want = x ^ g[a];
                    for (int k = 1; k <= 2 && k <= a && !done; k++)
                        for (int l = 0; l <= a - k && !done; l++) {
                            int r = a - k - l;
                            if ((g[l] ^ g[r]) == want) {
                                cout << i + 1 << ' ' << l << ' ' << r << endl;
                                rows[i] = l;
                                if (r > 0) rows.push_back(r);
                                done = true;
                            }
                        }
                }
            } else {
                long long i, l, r;
                if (!(cin >> i) || i < 0) return 0;
                cin >> l >> r;
                rows[i - 1] = l;
                if (r > 0) rows.push_back(r);
            }
            mine = !mine;
        }
    }
    return 0;
}
