/* Harmless: sleeps a little, then answers, so that the test can look at
 * the running program from outside. */
#include "common.h"
#include <unistd.h>

int main(void) {
    read_token();
    sleep(2);
    report();
    return 0;
}
