// Mistake: builds the table of losing pairs with the mex rule (a_k = smallest
// unused number, b_k = a_k + k) for every heap size up to the largest one in
// the input. Exact, but one int per heap size is 4 GB for heaps near 10^9.
#include <cstdio>
#include <vector>

int main() {
    std::vector<long long> a, b;
    long long x, y, top = 0;
    while (scanf("%lld %lld", &x, &y) == 2) {
        a.push_back(x);
        b.push_back(y);
        if (x > top) top = x;
        if (y > top) top = y;
    }
    std::vector<int> partner(top + 1, -1);
    long long next = 0;
    for (long long k = 0;; k++) {
        while (next <= top && partner[next] != -1) next++;
        if (next > top) break;
        long long other = next + k;
        partner[next] = other <= top ? (int)other : -2;
        if (other <= top) partner[other] = (int)next;
    }
    for (size_t i = 0; i < a.size(); i++)
        puts(partner[a[i]] == b[i] ? "0" : "1");
    return 0;
}
