// Mistake: searches the whole game tree move by move, without memoisation.
// Correct, but exponential in the number of empty cells.
#include <algorithm>
#include <cstdio>
#include <vector>

static bool wins(std::vector<int> &p) {
    for (size_t i = 0; i < p.size(); i++) {
        int left = i ? p[i - 1] : 0, old = p[i];
        for (int c = left + 1; c < old; c++) {
            p[i] = c;
            bool w = wins(p);
            p[i] = old;
            if (!w) return true;
        }
    }
    return false;
}

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        std::vector<int> p(n);
        for (int &x : p) scanf("%d", &x);
        std::sort(p.begin(), p.end());
        puts(wins(p) ? "Georgia will win" : "Bob will win");
    }
    return 0;
}
