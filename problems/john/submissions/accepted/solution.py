# Misère Nim per game: with single candies only, the first player wins
# exactly when the number of boxes is even; otherwise exactly when the XOR
# is non-zero.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        piles = [int(x) for x in data[pos + 1:pos + 1 + n]]
        pos += n + 1
        x = 0
        for a in piles:
            x ^= a
        first = n % 2 == 0 if max(piles) == 1 else x != 0
        out.append("John" if first else "Brother")
    sys.stdout.write("\n".join(out) + "\n")


main()
