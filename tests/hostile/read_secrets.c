/* Tries to read every path it is given (files and folders): the answers in
 * the judge's cache, a file in /tmp, one in the judge's $HOME, the problem's
 * spec, the reference, another submission. Prints what it could read. */
#include "common.h"
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

int main(void) {
    read_token();
    char path[4096];
    while (next_line(path, sizeof path)) {
        if (!path[0]) continue;
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            char buf[256];
            ssize_t n = read(fd, buf, sizeof buf - 1);
            if (n > 0) {
                buf[n] = 0;
                printf("PWNED read %s: %s\n", path, buf);
                pwned = 1;
            }
            close(fd);
        }
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                    printf("PWNED listed %s: %s\n", path, e->d_name);
                    pwned = 1;
                }
            }
            closedir(d);
        }
    }
    report();
    return 0;
}
