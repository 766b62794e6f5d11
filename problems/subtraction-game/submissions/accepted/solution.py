# The Grundy values of one heap repeat with period 7; XOR them over the heaps.
import sys

G = [0, 1, 0, 1, 2, 3, 2]


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    x = 0
    for t in data[1:1 + n]:
        x ^= G[int(t) % 7]
    print("First" if x else "Second")


main()
