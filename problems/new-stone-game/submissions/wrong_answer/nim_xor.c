/* Mistake: plays it as ordinary Nim (first player loses iff the xor of the
   piles is 0), ignoring that stones may be handed to other piles. */
#include <stdio.h>

int main(void) {
    int n, i, a, s;
    while (scanf("%d", &n) == 1 && n != 0) {
        s = 0;
        for (i = 0; i < n; i++) { scanf("%d", &a); s ^= a; }
        puts(s ? "1" : "0");
    }
    return 0;
}
