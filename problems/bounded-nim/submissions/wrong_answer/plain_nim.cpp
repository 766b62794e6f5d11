// Mistake: ignores the move limit and plays ordinary Nim (XOR of the piles).
// One pile of 3 with k = 2 is lost for Alice, not won.
#include <cstdio>

int main() {
    int n;
    long long k, a, x = 0;
    scanf("%d %lld", &n, &k);
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a);
        x ^= a;
    }
    puts(x ? "Alice" : "Bob");
}
