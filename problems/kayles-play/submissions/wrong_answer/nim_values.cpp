// Wrong: takes a row's value to be its number of pins, as in Nim, for the
// choice and for its moves (knocking down pins to make that XOR 0 when it
// can, one end pin otherwise).
#include <iostream>
#include <vector>
using namespace std;

int main() {
    long long t;
    if (!(cin >> t)) return 0;
    for (long long game = 0; game < t; game++) {
        long long n;
        if (!(cin >> n) || n < 0) return 0;
        vector<int> rows(n);
        for (auto &r : rows) cin >> r;
        auto xr = [&]() {
            int x = 0;
            for (int r : rows) x ^= r;
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
                int x = xr(), bi = -1, bl = 0, br = 0;
                for (size_t i = 0; i < rows.size() && bi < 0; i++) {
                    int a = rows[i];
                    for (int k = 1; k <= 2 && k <= a && bi < 0; k++)
                        for (int l = 0; l <= a - k; l++)
                            if ((x ^ a ^ l ^ (a - k - l)) == 0) {
                                bi = i, bl = l, br = a - k - l;
                                break;
                            }
                }
                if (bi < 0)
                    for (size_t i = 0; i < rows.size(); i++)
                        if (rows[i] > 0) {
                            bi = i, bl = rows[i] - 1, br = 0;
                            break;
                        }
                cout << bi + 1 << ' ' << bl << ' ' << br << endl;
                rows[bi] = bl;
                if (br > 0) rows.push_back(br);
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
