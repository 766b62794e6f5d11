/* Fills its working folder with many files, each kept under the per-file
 * size limit, and shrugs off SIGXFSZ. */
#include "common.h"
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

int main(void) {
    read_token();
    signal(SIGXFSZ, SIG_IGN);
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 100000; i++) {
        char name[64];
        snprintf(name, sizeof name, "fill-%d", i);
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) break;
        for (int k = 0; k < 2; k++) write(fd, block, sizeof block);
        close(fd);
    }
    report();
    return 0;
}
