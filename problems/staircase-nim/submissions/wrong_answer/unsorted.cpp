// Mistake: assumes the cells are listed from left to right and never sorts.
#include <cstdio>
#include <vector>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        std::vector<int> p(n);
        for (int &x : p) scanf("%d", &x);
        int s = 0;
        for (int i = n - 1; i >= 0; i -= 2) s ^= p[i] - (i >= 1 ? p[i - 1] : 0) - 1;
        puts(s ? "Georgia will win" : "Bob will win");
    }
    return 0;
}
