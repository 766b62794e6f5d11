/* Raises its own limits (hard ones included) and lowers those of the
 * process on line 2 (the test's own, the judge's parent). */
#include "common.h"
#include <sys/resource.h>
#include <unistd.h>

int main(void) {
    read_token();
    char line[64];
    pid_t other = next_line(line, sizeof line) ? atoi(line) : 0;
    int resources[] = {RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_NPROC,
                       RLIMIT_CORE, RLIMIT_MSGQUEUE, RLIMIT_RTPRIO, RLIMIT_MEMLOCK};
    const char *names[] = {"CPU", "FSIZE", "NOFILE", "NPROC", "CORE", "MSGQUEUE",
                           "RTPRIO", "MEMLOCK"};
    for (size_t i = 0; i < sizeof resources / sizeof *resources; i++) {
        struct rlimit now;
        if (getrlimit(resources[i], &now) != 0) continue;
        if (now.rlim_max == RLIM_INFINITY) continue;
        struct rlimit more = {RLIM_INFINITY, RLIM_INFINITY};
        if (setrlimit(resources[i], &more) == 0) {
            printf("PWNED raised RLIMIT_%s\n", names[i]);
            pwned = 1;
        }
    }
    if (other > 0) {
        struct rlimit one = {1, 1};
        struct rlimit old;
        if (prlimit(other, RLIMIT_NOFILE, NULL, &old) == 0) {
            printf("PWNED read the limits of %d\n", other);
            pwned = 1;
        }
        if (prlimit(other, RLIMIT_CORE, &one, NULL) == 0) {
            printf("PWNED changed the limits of %d\n", other);
            pwned = 1;
        }
    }
    report();
    return 0;
}
