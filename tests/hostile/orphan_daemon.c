/* Leaves a detached daemon behind: double fork, setsid, and a re-exec with
 * a marker (line 2) in its argv so that it can be looked for afterwards. */
#include "common.h"
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc > 1) {
        sleep(3600);
        return 0;
    }
    read_token();
    char marker[256];
    if (!next_line(marker, sizeof marker)) return 1;
    pid_t p = fork();
    if (p == 0) {
        setsid();
        if (fork() == 0) {
            char *args[] = {argv[0], marker, NULL};
            execv(argv[0], args);
            _exit(1);
        }
        _exit(0);
    }
    waitpid(p, NULL, 0);
    usleep(300 * 1000);
    report();
    return 0;
}
