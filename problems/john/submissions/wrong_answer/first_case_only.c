/* Mistake: reads T but answers only the first game. */
#include <stdio.h>

int main(void) {
    int t, n, a, x = 0, all_single = 1;
    scanf("%d", &t);
    scanf("%d", &n);
    for (int i = 0; i < n; i++) {
        scanf("%d", &a);
        x ^= a;
        if (a != 1) all_single = 0;
    }
    int first = all_single ? n % 2 == 0 : x != 0;
    puts(first ? "John" : "Brother");
    return 0;
}
