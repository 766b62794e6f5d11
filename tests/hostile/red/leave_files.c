/* Leaves 40 MiB of files in its working folder on every test, and looks
 * for what an earlier test left there. A judge that reuses a run's folder
 * (or leaves each run's tmpfs mounted under the next) would show the
 * earlier files (PWNED) or keep their memory charged to the slot, so that
 * a later test is over its memory limit without using it. */
#include "common.h"
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

int main(void) {
    read_token();
    DIR *d = opendir(".");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "left-", 5) == 0) {
            pwned = 1;
            printf("PWNED: %s is still here\n", e->d_name);
        }
    }
    if (d) closedir(d);
    char name[64];
    snprintf(name, sizeof name, "left-%d", getpid());
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    int written = 0;
    while (fd >= 0 && written < 40 && write(fd, block, sizeof block) == (ssize_t)sizeof block)
        written++;
    if (fd >= 0) close(fd);
    fprintf(stderr, "left %d MiB\n", written);
    report();
    return 0;
}
