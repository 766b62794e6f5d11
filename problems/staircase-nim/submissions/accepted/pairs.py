# Sort; pair chessmen from the right (an odd first one pairs with the wall at
# 0); the empty cells inside each pair are Nim piles.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        p = sorted(map(int, data[pos + 1:pos + 1 + n]))
        pos += 1 + n
        p = [0] + p if n % 2 else p
        s = 0
        for i in range(0, len(p), 2):
            s ^= p[i + 1] - p[i] - 1
        out.append("Georgia will win" if s else "Bob will win")
    print("\n".join(out))


main()
