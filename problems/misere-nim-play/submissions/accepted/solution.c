/* Misère Nim, played. While two or more piles hold more than one stone,
   play normal Nim (make the XOR zero). When exactly one pile is bigger than
   one, empty it or leave one stone in it, whichever leaves an odd number of
   single stones. With single stones only, the player to move wins exactly
   when their number is even. */
#include <stdio.h>
#include <stdlib.h>

static long long a[105];
static int n;

static long long next(void) {
    long long v;
    if (scanf("%lld", &v) != 1 || v < 0) exit(0); /* end of input or -1 */
    return v;
}

/* Writes the winning move into *pile, *left; returns 0 from a lost position. */
static int winning_move(int *pile, long long *left) {
    int i, big = 0, ones = 0, last_big = -1, a_one = -1;
    long long s = 0;
    for (i = 0; i < n; i++) {
        s ^= a[i];
        if (a[i] > 1) { big++; last_big = i; }
        if (a[i] == 1) { ones++; a_one = i; }
    }
    if (big == 1) {
        *pile = last_big;
        *left = ones % 2 == 1 ? 0 : 1;
        return 1;
    }
    if (big == 0) {
        if (ones % 2 == 1) return 0;
        *pile = a_one;
        *left = 0;
        return 1;
    }
    for (i = 0; i < n; i++) {
        if ((a[i] ^ s) < a[i]) {
            *pile = i;
            *left = a[i] ^ s;
            return 1;
        }
    }
    return 0;
}

int main(void) {
    long long t, games = next();
    for (t = 0; t < games; t++) {
        int i, left = 0, mine;
        long long x;
        n = (int)next();
        for (i = 0; i < n; i++) {
            a[i] = next();
            if (a[i] > 0) left++;
        }
        mine = winning_move(&i, &x);
        printf(mine ? "first\n" : "second\n");
        fflush(stdout);
        while (left > 0) {
            if (mine) {
                if (!winning_move(&i, &x)) { /* lost: take one stone anywhere */
                    for (i = 0; a[i] == 0; i++) {}
                    x = a[i] - 1;
                }
                printf("%d %lld\n", i + 1, x);
                fflush(stdout);
            } else {
                i = (int)next() - 1;
                x = next();
            }
            if (a[i] > 0 && x == 0) left--;
            a[i] = x;
            mine = !mine;
        }
    }
    return 0;
}
