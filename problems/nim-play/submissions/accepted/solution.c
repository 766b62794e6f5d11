/* Normal Nim, played: the player to move wins exactly when the XOR of the
   piles is non-zero. The winning move leaves pile i with a_i ^ s stones
   (smaller for a pile holding the top bit of s), making the XOR zero. */
#include <stdio.h>
#include <stdlib.h>

static long long next(void) {
    long long v;
    if (scanf("%lld", &v) != 1 || v < 0) exit(0); /* end of input or -1 */
    return v;
}

int main(void) {
    static long long a[105];
    long long t, games = next();
    for (t = 0; t < games; t++) {
        int n = (int)next(), i, left = 0, mine;
        long long s = 0;
        for (i = 0; i < n; i++) {
            a[i] = next();
            s ^= a[i];
            if (a[i] > 0) left++;
        }
        mine = s != 0;
        printf(mine ? "first\n" : "second\n");
        fflush(stdout);
        while (left > 0) {
            long long x;
            if (mine) {
                s = 0;
                for (i = 0; i < n; i++) s ^= a[i];
                for (i = 0; i < n && (a[i] ^ s) >= a[i]; i++) {}
                if (i == n) { /* lost position: never reached when playing right */
                    for (i = 0; a[i] == 0; i++) {}
                    x = a[i] - 1;
                } else {
                    x = a[i] ^ s;
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
