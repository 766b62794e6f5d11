/* Connects to a TCP listener on the loopback interface (port on line 2)
 * and sends a UDP datagram to the port on line 3. */
#include "common.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
    read_token();
    char line[64];
    int tcp_port = next_line(line, sizeof line) ? atoi(line) : 0;
    int udp_port = next_line(line, sizeof line) ? atoi(line) : 0;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s >= 0) {
        a.sin_port = htons(tcp_port);
        if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) {
            printf("PWNED connected to 127.0.0.1:%d\n", tcp_port);
            pwned = 1;
            write(s, "pwned\n", 6);
        }
        close(s);
    }
    int u = socket(AF_INET, SOCK_DGRAM, 0);
    if (u >= 0) {
        a.sin_port = htons(udp_port);
        if (sendto(u, "pwned", 5, 0, (struct sockaddr *)&a, sizeof a) == 5) {
            printf("PWNED sent a datagram to 127.0.0.1:%d\n", udp_port);
            pwned = 1;
        }
        close(u);
    }
    report();
    return 0;
}
