/* Fills the disk with files that have no name in its folder, so that a
 * count of the folder's files misses them: O_TMPFILE files and files
 * unlinked while open, each grown with fallocate up to the per-file cap,
 * then answers and holds them open until it is killed (a program that
 * keeps the disk full for as long as it may run). */
#include "common.h"
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

int main(void) {
    read_token();
    signal(SIGXFSZ, SIG_IGN);
    long total = 0;
    for (int i = 0; i < 12; i++) {
        int fd = open(".", O_TMPFILE | O_RDWR, 0600);
        if (fd < 0) {
            char name[32];
            snprintf(name, sizeof name, "gone-%d", i);
            fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
            if (fd < 0) break;
            unlink(name);
        }
        /* 60 MiB, or as much as the per-file cap lets through. */
        long size = 60l << 20;
        while (size > 0 && fallocate(fd, 0, 0, size) != 0) size -= 1 << 20;
        total += size;
    }
    fprintf(stderr, "held %ld MiB without names\n", total >> 20);
    report();
    for (;;) pause();
}
