/* Legitimate: uses 200 MiB of memory (under a 256 MiB limit). */
#include "common.h"

int main(void) {
    read_token();
    size_t n = 200u << 20;
    char *p = malloc(n);
    if (!p) return 1;
    for (size_t i = 0; i < n; i += 4096) p[i] = (char)i;
    long sum = 0;
    for (size_t i = 0; i < n; i += 4096) sum += p[i];
    if (sum == 42) puts("");
    report();
    return 0;
}
