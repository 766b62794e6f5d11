# Mistake: reads one game per line and unpacks exactly two numbers from it.
# A blank line, or a game broken over two lines, raises ValueError.
import sys
from math import isqrt

out = []
for line in sys.stdin:
    a, b = map(int, line.split())
    if a > b:
        a, b = b, a
    k = b - a
    out.append("0" if (k + isqrt(5 * k * k)) // 2 == a else "1")
print("\n".join(out))
