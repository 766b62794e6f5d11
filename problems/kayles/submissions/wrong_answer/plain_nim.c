/* Wrong: XOR of the row lengths, as in Nim. */
#include <stdio.h>

int main(void) {
    unsigned long long n, a, x = 0;
    if (scanf("%llu", &n) != 1) return 1;
    for (unsigned long long i = 0; i < n; i++) {
        if (scanf("%llu", &a) != 1) return 1;
        x ^= a;
    }
    puts(x ? "Alice" : "Bob");
    return 0;
}
