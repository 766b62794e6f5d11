/* Mistake: never calls fflush. Into a pipe, stdout is fully buffered, so
   "first"/"second" stays in the buffer while the program waits for the
   judge, which is waiting for it: both sides idle until the time limit. */
#include <stdio.h>
#include <stdlib.h>

static long long next(void) {
    long long v;
    if (scanf("%lld", &v) != 1 || v < 0) exit(0);
    return v;
}

int main(void) {
    static long long a[105];
    long long t, games = next();
    for (t = 0; t < games; t++) {
        int n = (int)next(), i, left = 0, mine;
        long long s = 0, x;
        for (i = 0; i < n; i++) {
            a[i] = next();
            s ^= a[i];
            if (a[i] > 0) left++;
        }
        mine = s != 0;
        printf(mine ? "first\n" : "second\n");
        while (left > 0) {
            if (mine) {
                s = 0;
                for (i = 0; i < n; i++) s ^= a[i];
                for (i = 0; i < n && (a[i] ^ s) >= a[i]; i++) {}
                if (i == n) {
                    for (i = 0; a[i] == 0; i++) {}
                    x = a[i] - 1;
                } else {
                    x = a[i] ^ s;
                }
                printf("%d %lld\n", i + 1, x);
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
