/* Takes every task its run uid may have (threads count against
 * RLIMIT_NPROC, per uid) and keeps them, idle, until the judge is stopped:
 * a bomb that stays at full strength rather than burning its CPU time. */
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
        if (pthread_create(&t, &at, idle, NULL) != 0) break;
    }
    for (;;) pause();
}
