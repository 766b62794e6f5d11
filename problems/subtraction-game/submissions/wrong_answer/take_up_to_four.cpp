// Wrong: values of "take 1 to 4" (a mod 5), forgetting that 2 stones
// cannot be taken.
#include <cstdio>

int main() {
    unsigned long long n, a;
    if (scanf("%llu", &n) != 1) return 1;
    unsigned long long x = 0;
    for (unsigned long long i = 0; i < n; i++) {
        if (scanf("%llu", &a) != 1) return 1;
        x ^= a % 5;
    }
    puts(x ? "First" : "Second");
    return 0;
}
