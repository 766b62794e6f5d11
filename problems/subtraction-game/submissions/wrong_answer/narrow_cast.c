/* Wrong: the heap is read whole but cast to int before taking it modulo
   7, so heaps above 2^31 land in the wrong class. */
#include <stdio.h>

int main(void) {
    static const int g[7] = {0, 1, 0, 1, 2, 3, 2};
    long long n, a;
    if (scanf("%lld", &n) != 1) return 1;
    int x = 0;
    for (long long i = 0; i < n; i++) {
        if (scanf("%lld", &a) != 1) return 1;
        int r = (int)a % 7;
        if (r < 0) r += 7;
        x ^= g[r];
    }
    puts(x ? "First" : "Second");
    return 0;
}
