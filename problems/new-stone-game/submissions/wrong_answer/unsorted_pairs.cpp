// Mistake: checks that neighbouring piles in input order are equal (a1 = a2,
// a3 = a4, ...) without sorting first.
#include <cstdio>

int main() {
    int n, a[10];
    while (scanf("%d", &n) == 1 && n != 0) {
        for (int i = 0; i < n; i++) scanf("%d", &a[i]);
        bool mirrored = n % 2 == 0;
        for (int i = 0; mirrored && i < n; i += 2) mirrored = a[i] == a[i + 1];
        puts(mirrored ? "0" : "1");
    }
    return 0;
}
