/* Legitimate under a memory group: reserves 1 GiB but touches only 8 MiB
 * of it (sparse tables, reserved buffers). Memory is judged by what is
 * touched, so this must not be MLE. */
#include "common.h"

int main(void) {
    read_token();
    size_t n = (size_t)1 << 30;
    volatile char *p = malloc(n);
    if (!p) return 1;
    for (size_t i = 0; i < (8u << 20); i += 4096) p[i] = 1;
    report();
    return 0;
}
