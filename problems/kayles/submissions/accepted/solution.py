# Kayles: Grundy values by mex up to 100 pins; periodic with period 12
# from 71 on. XOR over the rows.
import sys


def table(top):
    g = [0] * top
    for n in range(1, top):
        seen = set()
        for k in (1, 2):
            if k <= n:
                r = n - k
                for x in range(r + 1):
                    seen.add(g[x] ^ g[r - x])
        v = 0
        while v in seen:
            v += 1
        g[n] = v
    return g


def main():
    g = table(100)
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    x = 0
    for t in data[1:1 + n]:
        a = int(t)
        x ^= g[a] if a < 100 else g[71 + (a - 71) % 12]
    print("Alice" if x else "Bob")


main()
