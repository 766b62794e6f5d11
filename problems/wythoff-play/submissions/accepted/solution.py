# Wythoff's game, played. Lost pairs: (c(k), c(k) + k) in either order,
# c(k) = floor(k * phi) = (k + isqrt(5k^2)) // 2, exact with Python's
# integers. From a won pair lo <= hi (k = hi - lo): if lo > c(k) take
# lo - c(k) from both heaps; otherwise hi drops to lo's partner.
import sys
from math import isqrt


def cold(k):
    return (k + isqrt(5 * k * k)) // 2


def move(a, b):
    lo, hi = min(a, b), max(a, b)
    c = cold(hi - lo)
    if lo > c:
        return a - (lo - c), b - (lo - c)
    if lo == c:  # lost position: take one stone
        nh = hi - 1
    else:
        f = (isqrt(5 * lo * lo) - lo) // 2  # floor(lo / phi)
        nh = lo + f + 1 if cold(f + 1) == lo else f
    return (a, nh) if a <= b else (nh, b)


def main():
    lines = iter(sys.stdin.buffer.readline, b"")
    tokens = (int(t) for line in lines for t in line.split())

    def nxt():
        v = next(tokens, -1)
        if v < 0:  # end of input or -1: the judge has stopped
            sys.exit(0)
        return v

    for _ in range(nxt()):
        a, b = nxt(), nxt()
        mine = cold(abs(a - b)) != min(a, b)
        print("first" if mine else "second", flush=True)
        while a or b:
            if mine:
                a, b = move(a, b)
                print(a, b, flush=True)
            else:
                a, b = nxt(), nxt()
            mine = not mine


main()
