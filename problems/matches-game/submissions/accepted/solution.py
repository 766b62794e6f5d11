# Each game is won by the first player exactly when the XOR of its piles is
# non-zero. Reading tokens rather than lines copes with any layout.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    i = 0
    while i < len(data):
        m = int(data[i])
        x = 0
        for tok in data[i + 1:i + 1 + m]:
            x ^= int(tok)
        out.append("Yes" if x else "No")
        i += m + 1
    sys.stdout.write("\n".join(out) + "\n" if out else "")


main()
