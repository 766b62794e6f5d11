/* Leaves things for the runs after it: on each test it first looks for
 * what an earlier run planted (in its own folder, next to its own
 * program, and in the folders on the lines after the first), then plants
 * there a file, a FIFO, a symbolic link and an unreadable folder, all
 * named after the token. Finding one is PWNED. */
#include "common.h"
#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>
#include <unistd.h>

static char dirs[16][4096];
static int ndirs;

static void look(const char *dir) {
    const char *kinds[] = {"file", "fifo", "link", "dir"};
    for (int k = 0; k < 4; k++) {
        char p[4600];
        snprintf(p, sizeof p, "%s/planted-%s-%s", dir, kinds[k], token);
        struct stat st;
        if (lstat(p, &st) == 0) {
            printf("PWNED found %s\n", p);
            pwned = 1;
        }
    }
}

static void plant(const char *dir) {
    char p[4600];
    snprintf(p, sizeof p, "%s/planted-file-%s", dir, token);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0) {
        if (write(fd, "planted\n", 8) < 0) {}
        close(fd);
    }
    snprintf(p, sizeof p, "%s/planted-fifo-%s", dir, token);
    mkfifo(p, 0666);
    snprintf(p, sizeof p, "%s/planted-link-%s", dir, token);
    if (symlink("nowhere", p) < 0) {}
    snprintf(p, sizeof p, "%s/planted-dir-%s", dir, token);
    if (mkdir(p, 0700) == 0) {
        char q[4700];
        snprintf(q, sizeof q, "%s/inside", p);
        fd = open(q, O_WRONLY | O_CREAT, 0600);
        if (fd >= 0) close(fd);
        chmod(p, 0);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    read_token();
    snprintf(dirs[ndirs++], 4096, ".");
    char self[4096];
    snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(dirs[ndirs++], 4096, "%s", dirname(self));
    char line[4096];
    while (ndirs < 16 && next_line(line, sizeof line))
        if (line[0]) snprintf(dirs[ndirs++], 4096, "%s", line);
    for (int i = 0; i < ndirs; i++) look(dirs[i]);
    for (int i = 0; i < ndirs; i++) plant(dirs[i]);
    report();
    return 0;
}
