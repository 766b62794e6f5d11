/* Mistake: prints how many stones to take instead of how many stay. */
#include <stdio.h>

static long long a[100000];

int main(void) {
    int n, i;
    long long s = 0;
    scanf("%d", &n);
    for (i = 0; i < n; i++) { scanf("%lld", &a[i]); s ^= a[i]; }
    if (s == 0) { puts("lose"); return 0; }
    for (i = 0; i < n; i++)
        if ((a[i] ^ s) < a[i]) { printf("%d %lld\n", i + 1, a[i] - (a[i] ^ s)); return 0; }
    return 0;
}
