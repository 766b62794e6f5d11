/* Tries to create each file it is given, outside its working folder. */
#include "common.h"
#include <fcntl.h>
#include <unistd.h>

int main(void) {
    read_token();
    char path[4096];
    while (next_line(path, sizeof path)) {
        if (!path[0]) continue;
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            if (write(fd, "pwned\n", 6) == 6) {
                printf("PWNED wrote %s\n", path);
                pwned = 1;
            }
            close(fd);
        }
    }
    report();
    return 0;
}
