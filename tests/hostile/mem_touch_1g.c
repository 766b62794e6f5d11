/* Reserves 1 GiB and touches all of it: over a 64 MiB limit, MLE (not a
 * failed malloc reported as RE). */
#include "common.h"

int main(void) {
    read_token();
    size_t n = (size_t)1 << 30;
    volatile char *p = malloc(n);
    if (!p) return 1;
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    report();
    return 0;
}
