// Mistake: assumes the piles come sorted and decides "all piles are single
// stones" by looking at the last pile only. The piles are in no particular
// order: for 1 2 1 it takes the single-stone branch and answers Y.
#include <cstdio>
#include <vector>

int main() {
    int n;
    scanf("%d", &n);
    std::vector<long long> a(n);
    long long x = 0;
    for (auto &v : a) {
        scanf("%lld", &v);
        x ^= v;
    }
    bool first = a[n - 1] == 1 ? n % 2 == 0 : x != 0;
    puts(first ? "X" : "Y");
}
