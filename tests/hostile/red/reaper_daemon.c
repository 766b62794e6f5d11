/* Tries to outlive its run in every way a process can hide from a
 * process-group kill: makes itself a subreaper, then a child that leaves
 * the process group and session, ignores the polite signals and
 * double-forks; a sibling made with CLONE_PARENT; and a grandchild that
 * asks for no death signal. Each survivor re-executes itself with the
 * marker on line 2 in its argv, so it can be looked for afterwards. */
#include "common.h"
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void become_daemon(char **argv, const char *marker) {
    char *args[] = {argv[0], (char *)marker, NULL};
    signal(SIGHUP, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    prctl(PR_SET_PDEATHSIG, 0);
    execv(argv[0], args);
    _exit(1);
}

int main(int argc, char **argv) {
    if (argc > 1) {
        signal(SIGHUP, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        for (;;) pause();
    }
    read_token();
    char marker[256];
    if (!next_line(marker, sizeof marker)) return 1;
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    pid_t p = fork();
    if (p == 0) {
        setsid();
        if (fork() == 0) become_daemon(argv, marker);
        _exit(0);
    }
    if (p > 0) waitpid(p, NULL, 0);
    if (fork() == 0) {
        setpgid(0, 0);
        become_daemon(argv, marker);
    }
    long s = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
    if (s == 0) become_daemon(argv, marker);
    /* Stop being a subreaper so the orphans go further up, then answer. */
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    usleep(300 * 1000);
    report();
    return 0;
}
