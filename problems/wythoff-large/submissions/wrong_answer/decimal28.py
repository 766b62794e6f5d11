# Mistake: uses the decimal module with its default precision of 28 digits.
# k*phi has 18 digits before the point, leaving 10 after it, which is not
# enough when k is a sum of large Fibonacci numbers (k*phi within 1e-11 of an
# integer).
import sys
from decimal import Decimal

PHI = (1 + Decimal(5).sqrt()) / 2


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    for i in range(0, len(data) - 1, 2):
        a, b = int(data[i]), int(data[i + 1])
        if a > b:
            a, b = b, a
        cold = int(Decimal(b - a) * PHI)
        out.append("0" if cold == a else "1")
    sys.stdout.write("\n".join(out) + "\n")


main()
