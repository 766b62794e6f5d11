// Mistake: answers only the first game, as if the input held one case; the
// input holds games until the end of the file.
#include <iostream>

int main() {
    int m;
    std::cin >> m;
    long long x = 0, a;
    for (int i = 0; i < m; i++) {
        std::cin >> a;
        x ^= a;
    }
    std::cout << (x ? "Yes" : "No") << "\n";
}
