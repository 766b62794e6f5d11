/* Signals outside the run every way the kernel offers: the canary (line 2)
 * is killed outright; the test's own process (line 3, the judge's parent)
 * and its process group are only probed with signal 0, so that a broken
 * sandbox fails the test rather than ending it. */
#include "common.h"
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    read_token();
    char line[64];
    pid_t canary = next_line(line, sizeof line) ? atoi(line) : 0;
    pid_t test = next_line(line, sizeof line) ? atoi(line) : 0;
    if (canary > 0 && kill(canary, SIGKILL) == 0) {
        printf("PWNED killed the canary %d\n", canary);
        pwned = 1;
    }
    if (canary > 0 && syscall(SYS_tgkill, canary, canary, SIGKILL) == 0) {
        printf("PWNED tgkill %d\n", canary);
        pwned = 1;
    }
    int pfd = syscall(SYS_pidfd_open, canary, 0);
    if (pfd >= 0 && syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL, 0) == 0) {
        printf("PWNED pidfd_send_signal %d\n", canary);
        pwned = 1;
    }
    if (test > 0) {
        if (kill(test, 0) == 0) {
            printf("PWNED could signal %d\n", test);
            pwned = 1;
        }
        if (kill(-test, 0) == 0) {
            printf("PWNED could signal group %d\n", test);
            pwned = 1;
        }
        union sigval v = {0};
        if (sigqueue(test, 0, v) == 0) {
            printf("PWNED sigqueue %d\n", test);
            pwned = 1;
        }
        if (getpgid(test) >= 0 || getsid(test) >= 0) {
            printf("PWNED sees process %d\n", test);
            pwned = 1;
        }
    }
    /* Its own group, its session: only the run. */
    kill(0, SIGCONT);
    report();
    return 0;
}
