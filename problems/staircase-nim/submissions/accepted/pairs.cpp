// Sort; pair chessmen from the right (an odd first one pairs with the wall at
// 0); the empty cells inside each pair are Nim piles.
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        std::vector<int> p(n);
        for (int &x : p) scanf("%d", &x);
        std::sort(p.begin(), p.end());
        int s = 0;
        for (int i = n - 1; i >= 0; i -= 2) {
            int left = i >= 1 ? p[i - 1] : 0;
            s ^= p[i] - left - 1;
        }
        puts(s ? "Georgia will win" : "Bob will win");
    }
    return 0;
}
