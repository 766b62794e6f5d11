/* The classic. */
#include "common.h"
#include <unistd.h>

int main(void) {
    read_token();
    for (;;) fork();
}
