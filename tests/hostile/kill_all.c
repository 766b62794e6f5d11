/* Signals every process it can: kill(-1), its parent, pid 1, and the pids
 * given on the input (processes of the judge's user). */
#include "common.h"
#include <signal.h>
#include <unistd.h>

int main(void) {
    read_token();
    char line[64];
    while (next_line(line, sizeof line)) {
        int pid = atoi(line);
        if (pid > 0 && kill(pid, SIGKILL) == 0) {
            printf("PWNED killed %d\n", pid);
            pwned = 1;
        }
    }
    kill(getppid(), SIGKILL);
    kill(1, SIGKILL);
    kill(-1, SIGKILL);
    report();
    return 0;
}
