/* Threads without end, each idle on a small stack; when the kernel says
 * no, forks and carries on. */
#include "common.h"
#include <pthread.h>
#include <unistd.h>

static void *idle(void *arg) {
    for (;;) pause();
    return arg;
}

int main(void) {
    read_token();
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64 * 1024);
    for (;;) {
        pthread_t t;
        if (pthread_create(&t, &at, idle, NULL) != 0) fork();
    }
}
