# Wrong: starts the period at 52 pins, one too early (52 is the last
# exception of Dawson's Kayles; 51 is Dawson's chess's).
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
            x ^= g[a] if a < 52 else g[86 + (a - 52) % 34]
        pos += n
        out.append("First" if x else "Second")
    print("\n".join(out))


main()
