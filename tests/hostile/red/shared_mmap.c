/* Holds memory where per-process counts do not look: 1 GiB of shared
 * anonymous memory (shmem), touched page by page. */
#include "common.h"
#include <sys/mman.h>

int main(void) {
    read_token();
    size_t n = (size_t)1 << 30;
    volatile char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    report();
    return 0;
}
