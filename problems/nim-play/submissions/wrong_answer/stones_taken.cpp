// Mistake: writes how many stones it takes from the pile instead of how many
// are left in it. From "1 5" it means to empty the pile and writes "1 5".
#include <cstdlib>
#include <iostream>
#include <vector>

static long long next_number() {
    long long v;
    if (!(std::cin >> v) || v < 0) std::exit(0);
    return v;
}

int main() {
    long long games = next_number();
    for (long long t = 0; t < games; t++) {
        int n = static_cast<int>(next_number());
        std::vector<long long> a(n);
        long long s = 0;
        for (auto &x : a) {
            x = next_number();
            s ^= x;
        }
        bool mine = s != 0;
        std::cout << (mine ? "first" : "second") << std::endl;
        for (;;) {
            bool empty = true;
            for (long long v : a) empty = empty && v == 0;
            if (empty) break;
            int i = 0;
            long long x;
            if (mine) {
                s = 0;
                for (long long v : a) s ^= v;
                while (i < n && (a[i] ^ s) >= a[i]) i++;
                if (i == n) {
                    i = 0;
                    while (a[i] == 0) i++;
                    x = a[i] - 1;
                } else {
                    x = a[i] ^ s;
                }
                std::cout << i + 1 << ' ' << a[i] - x << std::endl;
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
