/* Writes to stderr without end. */
#include "common.h"

int main(void) {
    read_token();
    static char block[1 << 16];
    memset(block, 'e', sizeof block);
    for (;;) fwrite(block, 1, sizeof block, stderr);
}
