# Pile i has a winning move iff (a_i xor s) < a_i, s the nim-sum; one per pile.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    pos = 0
    while pos < len(data):
        n = int(data[pos])
        if n == 0:
            break
        piles = list(map(int, data[pos + 1:pos + 1 + n]))
        pos += 1 + n
        s = 0
        for v in piles:
            s ^= v
        out.append(str(sum(1 for v in piles if v ^ s < v)))
    sys.stdout.write("\n".join(out) + "\n")


main()
