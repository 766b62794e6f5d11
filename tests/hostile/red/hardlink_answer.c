/* Steals cached answers (paths on the following lines) without opening
 * them where they lie: a hard link into its own folder, a rename into it
 * (put back afterwards), then reads the copy. */
#include "common.h"
#include <fcntl.h>
#include <unistd.h>

static void steal(const char *name) {
    int fd = open(name, O_RDONLY);
    if (fd < 0) return;
    char buf[512];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n > 0) {
        buf[n] = 0;
        printf("PWNED %s: %s\n", name, buf);
        pwned = 1;
    }
}

int main(void) {
    read_token();
    char path[4096];
    int i = 0;
    while (next_line(path, sizeof path)) {
        if (!path[0]) continue;
        char name[64];
        snprintf(name, sizeof name, "link%d", i);
        if (link(path, name) == 0) steal(name);
        if (linkat(AT_FDCWD, path, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) steal(name);
        snprintf(name, sizeof name, "moved%d", i);
        if (rename(path, name) == 0) {
            steal(name);
            rename(name, path);
        }
        i++;
    }
    report();
    return 0;
}
