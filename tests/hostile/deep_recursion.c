/* Legitimate: recursion about 100 MB deep (stack bounded only by the
 * memory limit). */
#include "common.h"

static long depth(long n) {
    volatile char frame[1000];
    frame[0] = (char)n;
    if (n == 0) return frame[0];
    return depth(n - 1) + frame[0];
}

int main(void) {
    read_token();
    volatile long sum = depth(100000);
    (void)sum;
    report();
    return 0;
}
