# A pile of a stones with moves of 1..k behaves like a Nim pile of
# a mod (k + 1); the first player wins when the XOR of these is non-zero.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    step = int(data[1]) + 1
    x = 0
    for tok in data[2:2 + n]:
        x ^= int(tok) % step
    sys.stdout.write("Alice\n" if x else "Bob\n")


main()
