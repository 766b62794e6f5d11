// Mistake: takes the first heap for the smaller one without sorting, as if
// positions came as "a b" with a <= b. From "5 3" (lost for the player to
// move) b - a wraps around, the pair looks won, it chooses first, and its
// "move" leaves both heaps as they are.
#include <cstdlib>
#include <iostream>

typedef unsigned long long u64;
typedef unsigned __int128 u128;

// floor(sqrt(n)) by bisection on integers only.
static u128 isqrt(u128 n) {
    u128 lo = 0, hi = (u128)1 << 64;  // hi * hi > n for every n < 2^128
    while (hi - lo > 1) {
        u128 mid = lo + (hi - lo) / 2;
        if (mid * mid <= n) lo = mid; else hi = mid;
    }
    return lo;
}

static u64 cold(u64 k) { return (u64)(((u128)k + isqrt((u128)5 * k * k)) / 2); }

static u64 next_number() {
    long long v;
    if (!(std::cin >> v) || v < 0) std::exit(0);  // end of input or -1
    return (u64)v;
}

int main() {
    u64 games = next_number();
    for (u64 t = 0; t < games; t++) {
        u64 a = next_number(), b = next_number();
        bool mine = cold(b - a) != a;
        std::cout << (mine ? "first" : "second") << std::endl;
        while (a > 0 || b > 0) {
            if (mine) {
                u64 lo = a, hi = b, c = cold(hi - lo);
                if (lo > c) {
                    u64 d = lo - c;
                    a -= d;
                    b -= d;
                } else {
                    u64 nh;
                    if (lo == c) {
                        nh = 0;  // give up: empty the larger heap
                    } else {
                        u64 f = (u64)((isqrt((u128)5 * lo * lo) - lo) / 2);  // floor(lo / phi)
                        nh = cold(f + 1) == lo ? lo + f + 1 : f;
                    }
                    b = nh;
                }
                std::cout << a << ' ' << b << std::endl;  // endl flushes
            } else {
                a = next_number();
                b = next_number();
            }
            mine = !mine;
        }
    }
    return 0;
}
