/* Too slow: sorts the piles with bubble sort to find the largest one
   (to tell whether all piles are single stones). Correct, but O(n^2):
   about 5 * 10^9 steps for n = 10^5. */
#include <stdio.h>

static long long a[100000];

int main(void) {
    int n;
    scanf("%d", &n);
    long long x = 0;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a[i]);
        x ^= a[i];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j + 1 < n - i; j++)
            if (a[j] > a[j + 1]) {
                long long t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
    int first = a[n - 1] == 1 ? n % 2 == 0 : x != 0;
    puts(first ? "X" : "Y");
    return 0;
}
