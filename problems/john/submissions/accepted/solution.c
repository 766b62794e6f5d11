/* Misère Nim per game: with single candies only, the first player wins
   exactly when the number of boxes is even; otherwise exactly when the XOR
   is non-zero. */
#include <stdio.h>

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n, a, x = 0, all_single = 1;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            scanf("%d", &a);
            x ^= a;
            if (a != 1) all_single = 0;
        }
        int first = all_single ? n % 2 == 0 : x != 0;
        puts(first ? "John" : "Brother");
    }
    return 0;
}
