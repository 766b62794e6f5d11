# The first player loses exactly when the piles pair up into equal twins.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    pos = 0
    while True:
        n = int(data[pos])
        if n == 0:
            break
        a = sorted(data[pos + 1:pos + 1 + n], key=int)
        pos += 1 + n
        mirrored = n % 2 == 0 and all(int(a[i]) == int(a[i + 1]) for i in range(0, n, 2))
        out.append("0" if mirrored else "1")
    sys.stdout.write("\n".join(out) + "\n")


main()
