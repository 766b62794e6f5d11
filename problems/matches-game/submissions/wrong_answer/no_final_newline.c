/* Mistake: a hand-written line parser that answers a game when it sees the
   line break ending it. When the last line has no line break, the last game
   is never answered. (Blank lines are skipped correctly.) */
#include <stdio.h>

int main(void) {
    int c, count = 0, in_number = 0;
    long long num = 0, x = 0, values[32];
    while ((c = getchar()) != EOF) {
        if (c >= '0' && c <= '9') {
            num = num * 10 + (c - '0');
            in_number = 1;
            continue;
        }
        if (in_number) {
            if (count < 32) values[count] = num;
            count++;
            num = 0;
            in_number = 0;
        }
        if (c == '\n' && count > 0) {
            x = 0;
            for (int i = 1; i < count && i < 32; i++) x ^= values[i];
            puts(x ? "Yes" : "No");
            count = 0;
        }
    }
    return 0;
}
