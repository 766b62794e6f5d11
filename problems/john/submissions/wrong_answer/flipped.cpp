// Wrong idea: "misère is normal play reversed", so John wins when the XOR
// is zero. Only positions of single candies really change sides.
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n, a, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            scanf("%d", &a);
            x ^= a;
        }
        puts(x == 0 ? "John" : "Brother");
    }
}
