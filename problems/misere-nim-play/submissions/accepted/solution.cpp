// Misère Nim, played: normal Nim while two or more piles exceed one stone;
// once only one does, empty it or leave one so that an odd number of single
// stones remains; with single stones only, an even number wins.
#include <cstdlib>
#include <iostream>
#include <vector>

static long long next_number() {
    long long v;
    if (!(std::cin >> v) || v < 0) std::exit(0);  // end of input or -1
    return v;
}

// The winning move (pile, stones left), or pile -1 from a lost position.
static std::pair<int, long long> winning_move(const std::vector<long long> &a) {
    int big = 0, ones = 0, last_big = -1, a_one = -1;
    long long s = 0;
    for (int i = 0; i < (int)a.size(); i++) {
        s ^= a[i];
        if (a[i] > 1) big++, last_big = i;
        if (a[i] == 1) ones++, a_one = i;
    }
    if (big == 1) return {last_big, ones % 2 == 1 ? 0 : 1};
    if (big == 0) return ones % 2 == 0 ? std::make_pair(a_one, 0LL) : std::make_pair(-1, 0LL);
    for (int i = 0; i < (int)a.size(); i++)
        if ((a[i] ^ s) < a[i]) return {i, a[i] ^ s};
    return {-1, 0};
}

int main() {
    long long games = next_number();
    for (long long t = 0; t < games; t++) {
        int n = static_cast<int>(next_number());
        std::vector<long long> a(n);
        for (auto &x : a) x = next_number();
        bool mine = winning_move(a).first >= 0;
        std::cout << (mine ? "first" : "second") << std::endl;
        for (;;) {
            bool empty = true;
            for (long long v : a) empty = empty && v == 0;
            if (empty) break;
            int i;
            long long x;
            if (mine) {
                auto m = winning_move(a);
                i = m.first;
                x = m.second;
                if (i < 0) {  // lost position: take one stone anywhere
                    i = 0;
                    while (a[i] == 0) i++;
                    x = a[i] - 1;
                }
                std::cout << i + 1 << ' ' << x << std::endl;  // endl flushes
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
