# Wrong: uses the values of Dawson's chess (octal 0.137) for a row of n
# pins, forgetting that Dawson's Kayles has them one pin later.
import sys


def main():
    g = [0] * 200
    for n in range(1, 200):
        seen = set()
        if n == 1:
            seen.add(0)
        if n >= 2:
            seen.add(g[n - 2])
        if n == 2:
            seen.add(0)
        for x in range(0, n - 2):
            seen.add(g[x] ^ g[n - 3 - x])
        v = 0
        while v in seen:
            v += 1
        g[n] = v
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        x = 0
        for tok in data[pos:pos + n]:
            a = int(tok)
            x ^= g[a] if a < 200 else g[52 + (a - 52) % 34]
        pos += n
        print("First" if x else "Second")


main()
