// Wrong idea: "the first player wins only if the whole pile can be taken at
// once (n <= m)". With n = 5 and m = 3 the first player takes 1, leaves 4,
// and wins anyway.
#include <iostream>

int main() {
    int c, n, m;
    std::cin >> c;
    while (c--) {
        std::cin >> n >> m;
        std::cout << (n <= m ? "first" : "second") << "\n";
    }
}
