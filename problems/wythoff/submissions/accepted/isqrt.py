# Exact Beatty-sequence test with Python's integer square root.
import sys
from math import isqrt


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    for i in range(0, len(data) - 1, 2):
        a, b = int(data[i]), int(data[i + 1])
        if a > b:
            a, b = b, a
        k = b - a
        out.append("0" if (k + isqrt(5 * k * k)) // 2 == a else "1")
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
