// Mistake: prints the names in lower case ("alice"/"bob"); the checker
// compares tokens case-sensitively.
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long x = 0, a;
    for (int i = 0; i < n; i++) {
        std::cin >> a;
        x ^= a;
    }
    std::cout << (x ? "alice" : "bob") << "\n";
}
