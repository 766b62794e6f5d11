// Mistake: prints the pile number 0-based, as stored in the array.
#include <cstdio>
#include <vector>

int main() {
    int n;
    scanf("%d", &n);
    std::vector<long long> a(n);
    long long s = 0;
    for (int i = 0; i < n; i++) { scanf("%lld", &a[i]); s ^= a[i]; }
    if (s == 0) { puts("lose"); return 0; }
    for (int i = 0; i < n; i++)
        if ((a[i] ^ s) < a[i]) { printf("%d %lld\n", i, a[i] ^ s); return 0; }
    return 0;
}
