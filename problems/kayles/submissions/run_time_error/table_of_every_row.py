# Fails at run time: a table of values up to 5000 pins, indexed with the
# row's length directly (an IndexError for longer rows).
import sys


def table(top):
    g = [0] * top
    for n in range(1, top):
        seen = set()
        for k in (1, 2):
            if k <= n:
                r = n - k
                for x in range(r // 2 + 1):
                    seen.add(g[x] ^ g[r - x])
        v = 0
        while v in seen:
            v += 1
        g[n] = v
    return g


g = table(5000)
data = sys.stdin.buffer.read().split()
n = int(data[0])
x = 0
for t in data[1:1 + n]:
    x ^= g[int(t)]
print("Alice" if x else "Bob")
