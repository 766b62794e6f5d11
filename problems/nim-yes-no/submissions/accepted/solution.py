# The first player wins exactly when the XOR of the piles is non-zero.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    x = 0
    for tok in data[1:1 + n]:
        x ^= int(tok)
    sys.stdout.write("Yes\n" if x else "No\n")


main()
