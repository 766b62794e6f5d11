/* Fills its memory limit with many small processes, none larger than the
 * judge: when the run's memory group overflows, the OOM killer must find a
 * victim among them, not among the judge's helpers that live in the group
 * and share the judge's memory. */
#include "common.h"
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    read_token();
    for (int i = 0; i < 200; i++) {
        if (fork() == 0) {
            /* volatile: the compiler may not drop an allocation nobody reads. */
            volatile char *p = malloc(1 << 20);
            for (int j = 0; p && j < (1 << 20); j += 4096) p[j] = 1;
            pause();
            _exit(0);
        }
    }
    while (wait(NULL) > 0) {}
    report();
    return 0;
}
