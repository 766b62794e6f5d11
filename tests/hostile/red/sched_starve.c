/* Tries to starve the judge: renice and pin the process on line 2 (the
 * test's own, the judge's parent) and every process of its own user, and
 * take a real-time class for itself. */
#define _GNU_SOURCE
#include "common.h"
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    read_token();
    char line[64];
    pid_t other = next_line(line, sizeof line) ? atoi(line) : 0;
    if (other > 0) {
        if (setpriority(PRIO_PROCESS, other, 19) == 0) {
            printf("PWNED reniced %d\n", other);
            pwned = 1;
        }
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(0, &one);
        if (sched_setaffinity(other, sizeof one, &one) == 0) {
            printf("PWNED pinned %d\n", other);
            pwned = 1;
        }
        /* ioprio_set(IOPRIO_WHO_PROCESS, pid, idle class) */
        if (syscall(SYS_ioprio_set, 1, other, 3 << 13) == 0) {
            printf("PWNED changed the I/O priority of %d\n", other);
            pwned = 1;
        }
    }
    /* Everything of its user that it can see: in a pid namespace, itself. */
    setpriority(PRIO_USER, getuid(), 19);
    struct sched_param sp = {.sched_priority = 1};
    if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0) {
        printf("PWNED took SCHED_FIFO\n");
        pwned = 1;
    }
    if (setpriority(PRIO_PROCESS, 0, -20) == 0) {
        printf("PWNED raised its own priority\n");
        pwned = 1;
    }
    report();
    return 0;
}
