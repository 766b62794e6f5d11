/* Mistake: writes the test as a[i] ^ s < a[i] without parentheses. In C the
   comparison binds tighter, so it computes a[i] ^ (s < a[i]), which is
   non-zero for almost every pile. */
#include <stdio.h>

static long long a[1000];

int main(void) {
    int n, i, count;
    while (scanf("%d", &n) == 1 && n != 0) {
        long long s = 0;
        for (i = 0; i < n; i++) { scanf("%lld", &a[i]); s ^= a[i]; }
        count = 0;
        for (i = 0; i < n; i++)
            if (a[i] ^ s < a[i]) count++;
        printf("%d\n", count);
    }
    return 0;
}
