/* Wrong: reads the heaps as doubles; above 2^53 a heap is rounded and
   its class modulo 7 is lost. */
#include <math.h>
#include <stdio.h>

int main(void) {
    static const int g[7] = {0, 1, 0, 1, 2, 3, 2};
    int n;
    double a;
    if (scanf("%d", &n) != 1) return 1;
    int x = 0;
    for (int i = 0; i < n; i++) {
        if (scanf("%lf", &a) != 1) return 1;
        x ^= g[(int)fmod(a, 7.0)];
    }
    puts(x ? "First" : "Second");
    return 0;
}
