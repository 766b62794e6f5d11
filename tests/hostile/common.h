/* Shared by the hostile programs: the first input line is a token; a
 * program whose attack failed prints it back (so the verdict is AC), one
 * whose attack worked prints PWNED and what it got (so the verdict is WA). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char token[256];

static void read_token(void) {
    if (!fgets(token, sizeof token, stdin)) token[0] = 0;
    token[strcspn(token, "\n")] = 0;
}

/* The next input line (a parameter of the attack), or NULL at the end. */
static char *next_line(char *buf, int size) {
    if (!fgets(buf, size, stdin)) return NULL;
    buf[strcspn(buf, "\n")] = 0;
    return buf;
}

static int pwned;

static void report(void) {
    if (!pwned) printf("%s\n", token);
    fflush(stdout);
}
