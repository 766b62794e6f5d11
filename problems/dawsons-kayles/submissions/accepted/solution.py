# Dawson's Kayles: values by mex up to 200 pins, period 34 from 53 on.
import sys


def main():
    g = [0] * 200
    for n in range(2, 200):
        r = n - 2
        seen = {g[x] ^ g[r - x] for x in range(r + 1)}
        v = 0
        while v in seen:
            v += 1
        g[n] = v
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        x = 0
        for tok in data[pos:pos + n]:
            a = int(tok)
            x ^= g[a] if a < 200 else g[53 + (a - 53) % 34]
        pos += n
        out.append("First" if x else "Second")
    sys.stdout.write("\n".join(out) + "\n")


main()
