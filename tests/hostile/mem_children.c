/* Holds memory in many processes, each well within the per-process cap:
 * the second input line is how many children, the third how many MiB each
 * touches. The parent answers, then waits for children that never end, so
 * the run holds the sum until the judge stops it. */
#include "common.h"
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    char line[64];
    read_token();
    int children = atoi(next_line(line, sizeof line) ? line : "8");
    long mib = atol(next_line(line, sizeof line) ? line : "120");
    for (int i = 0; i < children; i++) {
        if (fork() == 0) {
            /* volatile: the compiler may not drop an allocation nobody reads. */
            volatile char *p = malloc(mib << 20);
            for (long j = 0; p && j < (mib << 20); j += 4096) p[j] = 1;
            pause();
            _exit(0);
        }
    }
    report();
    while (wait(NULL) > 0) {}
    return 0;
}
