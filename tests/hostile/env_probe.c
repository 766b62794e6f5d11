/* Looks for the judge's environment in its own. */
#include "common.h"

extern char **environ;

int main(void) {
    read_token();
    for (char **e = environ; *e; e++) {
        fprintf(stderr, "%s\n", *e);
        if (strstr(*e, "GRUNDY_HOSTILE_MARKER")) {
            printf("PWNED saw %s\n", *e);
            pwned = 1;
        }
    }
    report();
    return 0;
}
