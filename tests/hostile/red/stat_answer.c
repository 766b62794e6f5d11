/* Learns a cached answer from its metadata alone: the size of the file
 * (a one-word answer is its size), by every call that tells it. */
#include "common.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    read_token();
    char path[4096];
    while (next_line(path, sizeof path)) {
        if (!path[0]) continue;
        struct stat st;
        if (stat(path, &st) == 0 || lstat(path, &st) == 0) {
            printf("PWNED %s is %lld bytes\n", path, (long long)st.st_size);
            pwned = 1;
        }
        if (access(path, F_OK) == 0) {
            printf("PWNED %s exists\n", path);
            pwned = 1;
        }
        struct statx sx;
        if (statx(AT_FDCWD, path, 0, STATX_SIZE, &sx) == 0) {
            printf("PWNED statx %s\n", path);
            pwned = 1;
        }
    }
    report();
    return 0;
}
