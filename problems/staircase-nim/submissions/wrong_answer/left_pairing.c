/* Mistake: pairs the chessmen from the left (1st with 2nd, 3rd with 4th...),
   so with an odd count the rightmost chessman is left out instead of the
   leftmost one being paired with the wall. */
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(void) {
    int t, n, i, p[1000];
    scanf("%d", &t);
    while (t--) {
        int s = 0;
        scanf("%d", &n);
        for (i = 0; i < n; i++) scanf("%d", &p[i]);
        qsort(p, n, sizeof p[0], cmp);
        for (i = 0; i + 1 < n; i += 2) s ^= p[i + 1] - p[i] - 1;
        puts(s ? "Georgia will win" : "Bob will win");
    }
    return 0;
}
