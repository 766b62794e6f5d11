// Normal Nim, played: move first exactly when the XOR of the piles is
// non-zero; each move brings the XOR back to zero (pile i -> a_i ^ s).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

static long long next_number() {
    long long v;
    if (!(std::cin >> v) || v < 0) std::exit(0);  // end of input or -1
    return v;
}

int main() {
    long long games = next_number();
    for (long long t = 0; t < games; t++) {
        int n = static_cast<int>(next_number());
        std::vector<long long> a(n);
        long long s = 0;
        int left = 0;
        for (auto &x : a) {
            x = next_number();
            s ^= x;
            left += x > 0;
        }
        bool mine = s != 0;
        std::cout << (mine ? "first" : "second") << std::endl;
        while (left > 0) {
            int i = 0;
            long long x;
            if (mine) {
                s = 0;
                for (long long v : a) s ^= v;
                while (i < n && (a[i] ^ s) >= a[i]) i++;
                if (i == n) {  // lost position: take one stone anywhere
                    i = 0;
                    while (a[i] == 0) i++;
                    x = a[i] - 1;
                } else {
                    x = a[i] ^ s;
                }
                std::cout << i + 1 << ' ' << x << std::endl;  // endl flushes
            } else {
                i = static_cast<int>(next_number()) - 1;
                x = next_number();
            }
            if (a[i] > 0 && x == 0) left--;
            a[i] = x;
            mine = !mine;
        }
    }
    return 0;
}
