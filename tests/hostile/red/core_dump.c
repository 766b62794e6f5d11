/* Crashes from /tmp after asking for unlimited core dumps and making
 * itself dumpable: a core file there would outlive the run. */
#include "common.h"
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void) {
    read_token();
    struct rlimit all = {RLIM_INFINITY, RLIM_INFINITY};
    setrlimit(RLIMIT_CORE, &all);
    prctl(PR_SET_DUMPABLE, 1);
    chdir("/tmp");
    /* Worth dumping: 32 MiB of touched memory. */
    volatile char *p = malloc(32 << 20);
    for (int i = 0; p && i < (32 << 20); i += 4096) p[i] = 1;
    abort();
}
