/* Mistake: off by one in the period: tests n % m instead of n % (m + 1).
   With m = 3, a pile of 4 is lost for the first player, not won. */
#include <stdio.h>

int main(void) {
    int c, n, m;
    scanf("%d", &c);
    while (c--) {
        scanf("%d %d", &n, &m);
        puts(n % m ? "first" : "second");
    }
    return 0;
}
