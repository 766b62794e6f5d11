# Mistake: takes the distance between paired chessmen (p[i+1] - p[i]) as the
# pile instead of the number of empty cells between them (one less).
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
pos = 1
out = []
for _ in range(t):
    n = int(data[pos])
    p = sorted(map(int, data[pos + 1:pos + 1 + n]))
    pos += 1 + n
    if n % 2:
        p = [0] + p
    s = 0
    for i in range(0, len(p), 2):
        s ^= p[i + 1] - p[i]
    out.append("Georgia will win" if s else "Bob will win")
print("\n".join(out))
