/* Reaches for services on the machine: a UNIX socket by path (line 2), an
 * abstract one (line 3), the usual system buses, netlink and io_uring. */
#include "common.h"
#include <linux/io_uring.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static void connect_to(const char *name, int abstract) {
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0) return;
    struct sockaddr_un a = {0};
    a.sun_family = AF_UNIX;
    size_t n = strlen(name);
    if (n > sizeof a.sun_path - 2) n = sizeof a.sun_path - 2;
    memcpy(a.sun_path + (abstract ? 1 : 0), name, n);
    socklen_t len = offsetof(struct sockaddr_un, sun_path) + n + (abstract ? 1 : 0);
    if (connect(s, (struct sockaddr *)&a, len) == 0) {
        printf("PWNED connected to %s%s\n", abstract ? "@" : "", name);
        pwned = 1;
        write(s, "pwned\n", 6);
    }
    close(s);
}

int main(void) {
    read_token();
    char path[256], abstract[256];
    if (next_line(path, sizeof path)) connect_to(path, 0);
    if (next_line(abstract, sizeof abstract)) connect_to(abstract, 1);
    const char *buses[] = {"/run/dbus/system_bus_socket", "/var/run/docker.sock",
                           "/run/systemd/private", "/run/systemd/journal/stdout",
                           "/run/containerd/containerd.sock"};
    for (size_t i = 0; i < sizeof buses / sizeof *buses; i++) connect_to(buses[i], 0);
    int nl = socket(AF_NETLINK, SOCK_RAW, 0);
    if (nl >= 0) {
        printf("PWNED opened a netlink socket\n");
        pwned = 1;
        close(nl);
    }
    struct io_uring_params params = {0};
    int ring = syscall(SYS_io_uring_setup, 4, &params);
    if (ring >= 0) {
        printf("PWNED set up io_uring\n");
        pwned = 1;
        close(ring);
    }
    report();
    return 0;
}
