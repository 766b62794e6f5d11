/* Tries to trace, read the memory of, or steal descriptors from processes
 * of the judge's user (pids on the input; `parent` for its parent). */
#include "common.h"
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void attack(pid_t pid) {
    if (pid <= 0) return;
    if (ptrace(PTRACE_ATTACH, pid, 0, 0) == 0) {
        printf("PWNED attached to %d\n", pid);
        pwned = 1;
        /* Let it go once it has stopped, so that it runs on. */
        waitpid(pid, NULL, __WALL);
        ptrace(PTRACE_DETACH, pid, 0, 0);
    }
    if (ptrace(PTRACE_SEIZE, pid, 0, 0) == 0) {
        printf("PWNED seized %d\n", pid);
        pwned = 1;
        ptrace(PTRACE_DETACH, pid, 0, 0);
    }
    char buf[64];
    struct iovec local = {buf, sizeof buf};
    struct iovec remote = {(void *)0x400000, sizeof buf};
    if (process_vm_readv(pid, &local, 1, &remote, 1, 0) > 0) {
        printf("PWNED read the memory of %d\n", pid);
        pwned = 1;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", pid);
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        printf("PWNED opened %s\n", path);
        pwned = 1;
        close(fd);
    }
    int pfd = syscall(SYS_pidfd_open, pid, 0);
    if (pfd >= 0) {
        for (int target = 0; target < 16; target++) {
            int got = syscall(SYS_pidfd_getfd, pfd, target, 0);
            if (got >= 0) {
                printf("PWNED took descriptor %d of %d\n", target, pid);
                pwned = 1;
                close(got);
            }
        }
        close(pfd);
    }
}

int main(void) {
    read_token();
    char line[64];
    while (next_line(line, sizeof line))
        attack(strcmp(line, "parent") ? atoi(line) : getppid());
    report();
    return 0;
}
