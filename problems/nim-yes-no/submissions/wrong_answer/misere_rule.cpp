// Mistake: solves the misère game (taking the last stone loses). With only
// single stones the answer flips: "1 1" is a win for the first player here.
#include <cstdio>

int main() {
    int n;
    scanf("%d", &n);
    long long x = 0, a;
    bool big = false;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a);
        x ^= a;
        if (a > 1) big = true;
    }
    bool first = big ? x != 0 : n % 2 == 0;
    puts(first ? "Yes" : "No");
}
