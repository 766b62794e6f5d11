/* The reference of the test problem: prints the first input line back. */
#include "common.h"

int main(void) {
    read_token();
    report();
    return 0;
}
