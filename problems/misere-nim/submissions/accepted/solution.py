# Misère Nim: with single stones only, the first player wins exactly when
# their number is even; otherwise exactly when the XOR is non-zero.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    piles = [int(t) for t in data[1:1 + n]]
    x = 0
    for a in piles:
        x ^= a
    if max(piles) == 1:
        first = n % 2 == 0
    else:
        first = x != 0
    sys.stdout.write("X\n" if first else "Y\n")


main()
