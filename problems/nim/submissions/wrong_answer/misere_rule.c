/* Mistake: solves the misère game (taking the last stone loses): with only
   single stones it answers by an even count. Normal play is asked for, so
   e.g. one pile of one stone is a win for Alice, not for Bob. */
#include <stdio.h>

int main(void) {
    int n, a, x = 0, big = 0;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) {
        scanf("%d", &a);
        x ^= a;
        if (a > 1) big = 1;
    }
    int alice = big ? x != 0 : n % 2 == 0;
    puts(alice ? "Alice" : "Bob");
    return 0;
}
