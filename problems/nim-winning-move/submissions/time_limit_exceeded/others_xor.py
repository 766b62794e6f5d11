# Mistake: for each pile recomputes the xor of all the other piles, so the
# search is quadratic in n.
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
a = list(map(int, data[1:n + 1]))
answer = "lose"
for i in range(n):
    rest = 0
    for j in range(n):
        if j != i:
            rest ^= a[j]
    if rest < a[i]:
        answer = "%d %d" % (i + 1, rest)
        break
print(answer)
