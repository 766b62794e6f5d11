/* Wrong: judges by the total number of stones modulo k + 1. */
#include <stdio.h>

int main(void) {
    long long n, k;
    unsigned long long a, total = 0;
    if (scanf("%lld %lld", &n, &k) != 2) return 1;
    for (long long i = 0; i < n; i++) {
        if (scanf("%llu", &a) != 1) return 1;
        total = (total + a % (k + 1)) % (k + 1);
    }
    puts(total == 0 ? "Bob" : "Alice");
    return 0;
}
