/* Knocks on kernel surface a judged program never needs: keyrings (a key
 * in the user's keyring outlives the run; its description is on line 2),
 * userfaultfd, eBPF, perf events, new namespaces, mounts, chroot,
 * fanotify, and a flood of inotify instances. */
#define _GNU_SOURCE
#include "common.h"
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define KEY_SPEC_USER_KEYRING -4

static void got(const char *what) {
    printf("PWNED %s\n", what);
    pwned = 1;
}

int main(void) {
    read_token();
    char desc[200];
    if (!next_line(desc, sizeof desc)) return 1;
    if (syscall(SYS_add_key, "user", desc, "pwned", 5, KEY_SPEC_USER_KEYRING) >= 0)
        got("add_key");
    if (syscall(SYS_keyctl, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, NULL) >= 0) got("keyctl");
    if (syscall(SYS_userfaultfd, 0) >= 0) got("userfaultfd");
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.map_type = BPF_MAP_TYPE_ARRAY;
    attr.key_size = 4;
    attr.value_size = 4;
    attr.max_entries = 1;
    if (syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr) >= 0) got("bpf");
    struct perf_event_attr pe;
    memset(&pe, 0, sizeof pe);
    pe.size = sizeof pe;
    pe.type = PERF_TYPE_SOFTWARE;
    pe.config = PERF_COUNT_SW_CPU_CLOCK;
    if (syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0) >= 0) got("perf_event_open");
    if (unshare(CLONE_NEWUSER) == 0) got("unshare(CLONE_NEWUSER)");
    if (unshare(CLONE_NEWNS) == 0) got("unshare(CLONE_NEWNS)");
    long child = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    if (child == 0) _exit(0);
    if (child > 0) {
        waitpid(child, NULL, 0);
        got("clone(CLONE_NEWUSER)");
    }
    if (mount("none", ".", "tmpfs", 0, NULL) == 0) got("mount");
    if (chroot(".") == 0) got("chroot");
    if (fanotify_init(FAN_CLASS_NOTIF, 0) >= 0) got("fanotify_init");
    /* Holds as many inotify instances as it can get: per user, they would
     * starve the judge's own file watching if they were the judge's. */
    int held = 0;
    for (int i = 0; i < 2000; i++) {
        int fd = inotify_init1(IN_CLOEXEC);
        if (fd < 0) break;
        inotify_add_watch(fd, ".", IN_ALL_EVENTS);
        held++;
    }
    fprintf(stderr, "held %d inotify instances\n", held);
    report();
    return 0;
}
