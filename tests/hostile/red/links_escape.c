/* Tries to write outside its folder through links and renames: a symbolic
 * link to a new file (line 2), a hard link to an existing file of the
 * judge's (line 3), a rename out (line 4), a folder made outside (line 5),
 * and a file created through /proc/self/cwd/.. (named on line 6). */
#include "common.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_to(const char *path, const char *what) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, "pwned\n", 6) == 6) {
            printf("PWNED wrote %s (%s)\n", path, what);
            pwned = 1;
        }
        close(fd);
    }
}

int main(void) {
    read_token();
    char sym[4096], hard[4096], moved[4096], dir[4096], name[256];
    if (!next_line(sym, sizeof sym) || !next_line(hard, sizeof hard) ||
        !next_line(moved, sizeof moved) || !next_line(dir, sizeof dir) ||
        !next_line(name, sizeof name))
        return 1;
    if (symlink(sym, "sym") == 0) write_to("sym", "symbolic link");
    if (link(hard, "hard") == 0) write_to("hard", "hard link");
    int own = open("local", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (own >= 0) close(own);
    if (rename("local", moved) == 0) {
        printf("PWNED moved a file to %s\n", moved);
        pwned = 1;
    }
    if (mkdir(dir, 0755) == 0) {
        printf("PWNED made %s\n", dir);
        pwned = 1;
    }
    char up[512];
    snprintf(up, sizeof up, "/proc/self/cwd/../%s", name);
    write_to(up, "parent through /proc");
    if (chdir("..") == 0) write_to(name, "parent folder");
    /* Its own answer is still all that counts. */
    report();
    return 0;
}
