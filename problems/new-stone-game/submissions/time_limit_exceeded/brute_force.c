/* Mistake: searches the game tree by the rules, without memoisation: every
   removal and every way to hand stones to the other piles. Correct, but
   exponential in the number of stones. */
#include <stdio.h>

static int n;
static int a[10];

static int wins(void);

/* Hands `give` stones to piles from index `j` on (skipping `from` and empty
   piles); returns 1 if some resulting position loses for the opponent. */
static int spread(int from, int j, int give) {
    if (give == 0) return !wins();
    for (; j < n; j++) {
        if (j == from || a[j] == 0) continue;
        for (int g = 1; g <= give; g++) {
            a[j] += g;
            int w = spread(from, j + 1, give - g);
            a[j] -= g;
            if (w) return 1;
        }
    }
    return 0;
}

static int wins(void) {
    for (int i = 0; i < n; i++) {
        int old = a[i];
        for (int left = 0; left < old; left++) {
            for (int keep = 0; keep <= left; keep++) {
                a[i] = keep;
                int w = spread(i, 0, left - keep);
                a[i] = old;
                if (w) return 1;
            }
        }
    }
    return 0;
}

int main(void) {
    while (scanf("%d", &n) == 1 && n != 0) {
        for (int i = 0; i < n; i++) scanf("%d", &a[i]);
        puts(wins() ? "1" : "0");
    }
    return 0;
}
