/* Four threads burning CPU: the limit is on the CPU time of them all. */
#include "common.h"
#include <pthread.h>

static void *spin(void *arg) {
    volatile unsigned long x = 0;
    for (;;) x++;
    return arg;
}

int main(void) {
    read_token();
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, spin, NULL);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    return 0;
}
