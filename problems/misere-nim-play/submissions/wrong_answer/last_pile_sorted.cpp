// Mistake: assumes the piles come sorted, so the last pile is the biggest
// and the one before it the second biggest: it tests "single stones only"
// and "only one big pile" on those two. From "3 2 1 1" it sees single
// stones only and takes one, leaving "2 0 1": the judge empties the 2.
#include <cstdlib>
#include <iostream>
#include <vector>

static long long next_number() {
    long long v;
    if (!(std::cin >> v) || v < 0) std::exit(0);
    return v;
}

// The move it believes wins (pile, stones left), or pile -1.
static std::pair<int, long long> move_for(const std::vector<long long> &a) {
    int n = (int)a.size(), ones = 0;
    long long s = 0;
    for (long long v : a) s ^= v, ones += v == 1;
    if (a[n - 1] <= 1) {  // "all single stones"
        if (ones % 2 == 1) return {-1, 0};
        for (int i = 0; i < n; i++)
            if (a[i] == 1) return {i, 0};
        return {-1, 0};
    }
    if (n == 1 || a[n - 2] <= 1)  // "only the last pile is big"
        return {n - 1, ones % 2 == 1 ? 0 : 1};
    for (int i = 0; i < n; i++)
        if ((a[i] ^ s) < a[i]) return {i, a[i] ^ s};
    return {-1, 0};
}

int main() {
    long long games = next_number();
    for (long long t = 0; t < games; t++) {
        int n = static_cast<int>(next_number());
        std::vector<long long> a(n);
        for (auto &x : a) x = next_number();
        bool mine = move_for(a).first >= 0;
        std::cout << (mine ? "first" : "second") << std::endl;
        for (;;) {
            bool empty = true;
            for (long long v : a) empty = empty && v == 0;
            if (empty) break;
            int i;
            long long x;
            if (mine) {
                auto m = move_for(a);
                i = m.first;
                x = m.second;
                if (i < 0 || x >= a[i]) {
                    i = 0;
                    while (a[i] == 0) i++;
                    x = 0;  // give up: empty the pile
                }
                std::cout << i + 1 << ' ' << x << std::endl;
            } else {
                i = static_cast<int>(next_number()) - 1;
                x = next_number();
            }
            a[i] = x;
            mine = !mine;
        }
    }
    return 0;
}
