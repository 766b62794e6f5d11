// The first player loses exactly when n is a multiple of m + 1: whatever
// they take, the opponent completes the round to m + 1 stones.
#include <cstdio>

int main() {
    int c;
    if (scanf("%d", &c) != 1) return 0;
    while (c--) {
        int n, m;
        scanf("%d %d", &n, &m);
        puts(n % (m + 1) ? "first" : "second");
    }
    return 0;
}
