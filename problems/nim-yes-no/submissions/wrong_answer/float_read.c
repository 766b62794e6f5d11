/* Mistake: reads the piles as float. Above 2^24 a float cannot hold every
   integer, so piles near 10^9 are rounded (to multiples of 64) before the
   XOR, which then no longer says who wins. */
#include <stdio.h>

int main(void) {
    int n;
    float a;
    long long x = 0;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) {
        scanf("%f", &a);
        x ^= (long long)a;
    }
    puts(x ? "Yes" : "No");
    return 0;
}
