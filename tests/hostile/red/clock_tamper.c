/* Tries to set the machine's clocks (to the time they already show, so a
 * broken sandbox fails the test without moving the clock). */
#include "common.h"
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    read_token();
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (clock_settime(CLOCK_REALTIME, &now) == 0) {
        printf("PWNED clock_settime\n");
        pwned = 1;
    }
    struct timeval tv;
    gettimeofday(&tv, NULL);
    if (settimeofday(&tv, NULL) == 0) {
        printf("PWNED settimeofday\n");
        pwned = 1;
    }
    struct timex tx = {0};
    if (adjtimex(&tx) >= 0) {
        /* Same tick back: a write that changes nothing. */
        tx.modes = ADJ_TICK;
        if (adjtimex(&tx) >= 0) {
            printf("PWNED adjtimex\n");
            pwned = 1;
        }
    }
    report();
    return 0;
}
