/* Grows its memory one MiB at a time, touching every page, and carries on
 * as if allocation never failed. */
#include "common.h"

int main(void) {
    read_token();
    for (;;) {
        char *p = malloc(1 << 20);
        memset(p, 1, 1 << 20);
    }
}
