/* A correct program with a small worker pool: the parent touches 16 MiB
 * before it forks (pages the workers share with it until written), each of
 * four workers touches 6 MiB of its own, and all hold them together for a
 * moment before the answer. About 40 MiB in all under a 64 MiB limit; a
 * judge that counted the shared pages once per process (five times 16 MiB)
 * would see more than 100 MiB. */
#include "common.h"
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 4

static void touch(volatile char *p, long bytes) {
    for (long j = 0; p && j < bytes; j += 4096) p[j] = 1;
}

int main(void) {
    read_token();
    volatile char *shared = malloc(16 << 20);
    touch(shared, 16 << 20);
    int ready[2];
    if (pipe(ready) != 0) return 1;
    for (int i = 0; i < WORKERS; i++) {
        pid_t pid = fork();
        if (pid < 0) return 1;
        if (pid == 0) {
            volatile char *own = malloc(6 << 20);
            touch(own, 6 << 20);
            /* Reads the parent's pages: still shared. */
            long sum = 0;
            for (long j = 0; j < (16 << 20); j += 4096) sum += shared[j];
            if (write(ready[1], "x", 1) != 1) _exit(1);
            struct timespec hold = {0, 300 * 1000 * 1000};
            nanosleep(&hold, NULL);
            _exit(sum == (16 << 20) / 4096 ? 0 : 1);
        }
    }
    close(ready[1]);
    char c;
    for (int i = 0; i < WORKERS; i++)
        if (read(ready[0], &c, 1) != 1) return 1;
    int ok = 1;
    for (int i = 0; i < WORKERS; i++) {
        int status = 0;
        if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) ok = 0;
    }
    if (!ok) return 1;
    report();
    return 0;
}
