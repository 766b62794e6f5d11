/* Calls what the seccomp filter denies through the x32 ABI's door (on
 * x86_64: the same audit architecture, bit 30 set in the number): socket,
 * ptrace, unshare, io_uring_setup, keyctl. */
#include "common.h"
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#define X32 0x40000000L

int main(void) {
    read_token();
#ifdef __x86_64__
    long s = syscall(X32 | SYS_socket, 2 /* AF_INET */, 2 /* SOCK_DGRAM */, 0);
    if (s >= 0) {
        printf("PWNED x32 socket\n");
        pwned = 1;
        close(s);
    }
    if (syscall(X32 | SYS_ptrace, 16 /* PTRACE_ATTACH */, getppid(), 0, 0) == 0) {
        printf("PWNED x32 ptrace\n");
        pwned = 1;
    }
    if (syscall(X32 | SYS_unshare, 0x10000000 /* CLONE_NEWUSER */) == 0) {
        printf("PWNED x32 unshare\n");
        pwned = 1;
    }
    if (syscall(X32 | SYS_keyctl, 1, NULL) >= 0) {
        printf("PWNED x32 keyctl\n");
        pwned = 1;
    }
#endif
    report();
    return 0;
}
