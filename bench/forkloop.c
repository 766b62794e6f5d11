/* The floor for judging: fork, redirect, exec, wait, nothing else (the
 * output file made anew for each run, as a judge would).
 * Usage: forkloop PROGRAM OUTFILE INPUT...  */
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    for (int i = 3; i < argc; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            int in = open(argv[i], O_RDONLY);
            int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(in, 0);
            dup2(out, 1);
            execl(argv[1], argv[1], (char *)0);
            _exit(127);
        }
        int status;
        waitpid(pid, &status, 0);
        /* A new output file each time: on ext4, truncating one that holds
         * data flushes it (130 us here), which is not the floor. */
        unlink(argv[2]);
    }
    return 0;
}
