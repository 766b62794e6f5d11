/* Hunts for the cache's answers without being told where they are: from
 * its own program's path (argv[0] lies in the cache) upwards, from the
 * mount table, and from the `--cache` argument in the command line of
 * every process it can see (pids from line 2 on, and 1..64). Every file
 * named `*.ans` found below those folders is read and printed. */
#include "common.h"
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <unistd.h>

static int seen;

static int visit(const char *path, const struct stat *st, int flag, struct FTW *f) {
    (void)st;
    if (++seen > 20000 || f->level > 8) return seen > 20000 ? 1 : 0;
    size_t n = strlen(path);
    if (flag == FTW_F && n > 4 && strcmp(path + n - 4, ".ans") == 0) {
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            char buf[256];
            ssize_t r = read(fd, buf, sizeof buf - 1);
            close(fd);
            if (r > 0) {
                buf[r] = 0;
                printf("PWNED %s: %s\n", path, buf);
                pwned = 1;
            }
        }
    }
    return 0;
}

static void hunt(const char *dir) {
    if (dir[0] == '/' && dir[1]) nftw(dir, visit, 16, FTW_PHYS);
}

static void cmdline(int pid) {
    char path[64], buf[8192];
    snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return;
    buf[n] = 0;
    for (char *a = buf; a < buf + n; a += strlen(a) + 1)
        if (strcmp(a, "--cache") == 0 && a + strlen(a) + 1 < buf + n) hunt(a + strlen(a) + 1);
}

int main(int argc, char **argv) {
    (void)argc;
    read_token();
    char line[256];
    int from = next_line(line, sizeof line) ? atoi(line) : 0;
    char up[4096];
    snprintf(up, sizeof up, "%s", argv[0]);
    for (int i = 0; i < 4; i++) {
        snprintf(up, sizeof up, "%s", dirname(up));
        hunt(up);
    }
    FILE *m = fopen("/proc/self/mountinfo", "r");
    if (m) {
        char l[4096];
        while (fgets(l, sizeof l, m)) {
            char mp[4096];
            if (sscanf(l, "%*s %*s %*s %*s %4095s", mp) == 1 && strstr(mp, "cache")) hunt(mp);
        }
        fclose(m);
    }
    for (int pid = 1; pid < 64; pid++) cmdline(pid);
    for (int pid = from; from > 0 && pid < from + 3000; pid++) cmdline(pid);
    report();
    return 0;
}
