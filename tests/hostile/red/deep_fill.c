/* Fills the disk far below PATH_MAX's reach: a chain of 3000 folders
 * (each opened from the last, so no path is ever named), then 1 MiB files
 * at the bottom until 64 MiB or the file system refuses, and holds them
 * until killed. A watcher that walks the folder by path cannot reach them. */
#include "common.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    read_token();
    signal(SIGXFSZ, SIG_IGN);
    int fd = open(".", O_RDONLY | O_DIRECTORY);
    for (int i = 0; i < 3000 && fd >= 0; i++) {
        if (mkdirat(fd, "d", 0755) != 0) break;
        int n = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = n;
    }
    if (fd < 0) return 2;
    static char mib[1 << 20];
    memset(mib, 'x', sizeof mib);
    long total = 0;
    for (int i = 0; i < 64; i++) {
        char name[32];
        snprintf(name, sizeof name, "f%d", i);
        int f = openat(fd, name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (f < 0) break;
        ssize_t w = write(f, mib, sizeof mib);
        close(f);
        if (w <= 0) break;
        total += w;
        if (w < (ssize_t)sizeof mib) break;
    }
    fprintf(stderr, "held %ld MiB deep\n", total >> 20);
    report();
    for (;;) pause();
}
