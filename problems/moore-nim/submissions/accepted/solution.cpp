// Moore's theorem: the mover loses exactly when, at every binary digit,
// the number of heaps with that digit set is a multiple of k + 1.
#include <cstdio>

int main() {
    long long n, k;
    if (scanf("%lld %lld", &n, &k) != 2) return 1;
    long long count[64] = {0};
    for (long long i = 0; i < n; i++) {
        unsigned long long a;
        if (scanf("%llu", &a) != 1) return 1;
        for (int b = 0; b < 64; b++)
            if (a >> b & 1) count[b]++;
    }
    bool lost = true;
    for (int b = 0; b < 64; b++)
        if (count[b] % (k + 1) != 0) lost = false;
    puts(lost ? "Bob" : "Alice");
    return 0;
}
