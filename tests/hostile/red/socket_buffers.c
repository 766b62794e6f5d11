/* Holds memory in the kernel rather than in its own pages: UNIX socket
 * pairs whose buffers it fills, in four processes of a thousand
 * descriptors each (about 800 MiB in all), then answers while they hold:
 * PWNED and the total when it held more than the 64 MiB limit (WA), its
 * token when it could not (AC). */
#include "common.h"
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static long fill(void) {
    static char block[65536];
    long held = 0;
    for (int i = 0; i < 500; i++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) break;
        fcntl(sv[0], F_SETFL, O_NONBLOCK);
        for (;;) {
            ssize_t n = write(sv[0], block, sizeof block);
            if (n <= 0) break;
            held += n;
        }
    }
    return held;
}

int main(void) {
    read_token();
    int ready[2];
    if (pipe(ready) != 0) return 1;
    for (int i = 0; i < 4; i++) {
        if (fork() == 0) {
            close(ready[0]);
            long held = fill();
            fprintf(stderr, "held %ld\n", held);
            fflush(stderr);
            write(ready[1], &held, sizeof held);
            pause();
            _exit(0);
        }
    }
    close(ready[1]);
    long total = 0, held;
    for (int i = 0; i < 4; i++) {
        if (read(ready[0], &held, sizeof held) != sizeof held) break;
        total += held;
    }
    held = fill();
    fprintf(stderr, "held %ld\n", held);
    total += held;
    if (total > (64L << 20)) {
        pwned = 1;
        printf("PWNED held %ld MiB in socket buffers\n", total >> 20);
    }
    report();
    return 0;
}
