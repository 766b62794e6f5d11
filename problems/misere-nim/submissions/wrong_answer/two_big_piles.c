/* Mistake: plays the single-stone endgame unless at least TWO piles hold
   more than one stone, answering then by the parity of the single stones.
   With exactly one big pile the first player always wins (take it down to
   0 or 1 to leave an odd number of single stones), so this is wrong on
   "2 / 2 1": one big pile and an odd number of single stones. */
#include <stdio.h>

int main(void) {
    int n;
    long long a, x = 0, ones = 0, big = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        if (scanf("%lld", &a) != 1) return 1;
        x ^= a;
        if (a == 1) ones++; else big++;
    }
    int first_wins = big >= 2 ? x != 0 : ones % 2 == 0;
    puts(first_wins ? "X" : "Y");
    return 0;
}
