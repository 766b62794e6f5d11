# The first player loses exactly when n is a multiple of m + 1: whatever
# they take, the opponent completes the round to m + 1 stones.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    c = int(data[0])
    out = []
    for i in range(c):
        n = int(data[1 + 2 * i])
        m = int(data[2 + 2 * i])
        out.append("first" if n % (m + 1) else "second")
    sys.stdout.write("\n".join(out) + "\n")


main()
