/* Looks for the judge through /proc: the environment of every process
 * from the pid on line 2 onwards (the judge starts after the test), and
 * the paths on the following lines (the judge's cwd, root and descriptors
 * seen through /proc). Prints whatever it could read. */
#include "common.h"
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

static void try_read(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        char buf[4096];
        ssize_t n = read(fd, buf, sizeof buf - 1);
        if (n > 0) {
            for (ssize_t i = 0; i < n; i++)
                if (!buf[i]) buf[i] = ' ';
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

int main(void) {
    read_token();
    char line[4096];
    int from = next_line(line, sizeof line) ? atoi(line) : 0;
    for (int pid = 1; pid < 64; pid++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/environ", pid);
        try_read(path);
    }
    for (int pid = from; from > 0 && pid < from + 3000; pid++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/environ", pid);
        try_read(path);
    }
    while (next_line(line, sizeof line))
        if (line[0]) try_read(line);
    report();
    return 0;
}
