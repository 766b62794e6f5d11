/* Writes 2 GiB to stderr as fast as it can, then the right answer: stderr
 * is diagnostics, so this is AC whatever the output limit. */
#include "common.h"
#include <unistd.h>

int main(void) {
    read_token();
    static char block[1 << 20];
    memset(block, 'e', sizeof block);
    memcpy(block, "diagnostics start here\n", 23);
    long long left = 2LL << 30;
    while (left > 0) {
        ssize_t n = write(2, block, sizeof block);
        if (n <= 0) {
            /* stderr refused: say so on stdout, which makes the verdict WA. */
            printf("stderr write failed after %lld bytes left\n", left);
            return 0;
        }
        left -= n;
    }
    report();
    return 0;
}
