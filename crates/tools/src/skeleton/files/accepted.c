/* Accepted: the first player loses exactly when n is a multiple of 4. */
#include <stdio.h>

int main(void) {
    int games;
    long long n;
    if (scanf("%d", &games) != 1) return 1;
    while (games-- > 0 && scanf("%lld", &n) == 1)
        puts(n % 4 == 0 ? "Second" : "First");
    return 0;
}
