/* Mistake: ignores the misère rule and answers as in normal Nim (XOR
   non-zero wins). That is right except when every pile is a single stone,
   e.g. "1 1": the first player must leave the last stone and wins. */
#include <stdio.h>

int main(void) {
    int n;
    long long a, x = 0;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a);
        x ^= a;
    }
    puts(x ? "X" : "Y");
    return 0;
}
