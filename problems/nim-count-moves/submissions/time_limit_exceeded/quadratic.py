# Mistake: for each pile recomputes the xor of all the other piles: quadratic
# in n for every position.
import sys

data = sys.stdin.buffer.read().split()
out = []
pos = 0
while True:
    n = int(data[pos])
    if n == 0:
        break
    a = list(map(int, data[pos + 1:pos + 1 + n]))
    pos += 1 + n
    count = 0
    for i in range(n):
        rest = 0
        for j in range(n):
            if j != i:
                rest ^= a[j]
        if rest < a[i]:
            count += 1
    out.append(str(count))
print("\n".join(out))
