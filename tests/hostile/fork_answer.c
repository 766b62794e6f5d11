/* A correct program that keeps a few helper processes alive at once, as a
 * program with a small worker pool would: it needs tasks beyond its own. */
#include "common.h"
#include <sys/wait.h>
#include <unistd.h>

#define HELPERS 8

int main(void) {
    read_token();
    int p[2];
    if (pipe(p) != 0) return 1;
    for (int i = 0; i < HELPERS; i++) {
        pid_t pid = fork();
        if (pid < 0) return 1;
        if (pid == 0) {
            /* Waits until the parent has started every helper. */
            char c;
            close(p[1]);
            while (read(p[0], &c, 1) > 0) {}
            _exit(0);
        }
    }
    close(p[1]);
    int ok = 1;
    for (int i = 0; i < HELPERS; i++) {
        int status = 0;
        if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) ok = 0;
    }
    if (!ok) return 1;
    report();
    return 0;
}
