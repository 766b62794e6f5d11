# Mistake: keeps the heaps sorted (smaller first) and writes its moves in
# that order too, but a move must follow the order of the position line.
# From "4 1" it means (1, 2) and writes "1 2": heap 2 would grow from 1 to 2.
import sys
from math import isqrt


def cold(k):
    return (k + isqrt(5 * k * k)) // 2


def move(lo, hi):
    c = cold(hi - lo)
    if lo > c:
        return c, hi - (lo - c)
    if lo == c:
        return lo, hi - 1
    f = (isqrt(5 * lo * lo) - lo) // 2
    nh = lo + f + 1 if cold(f + 1) == lo else f
    return min(lo, nh), max(lo, nh)


def main():
    tokens = (int(t) for line in sys.stdin for t in line.split())

    def nxt():
        v = next(tokens, -1)
        if v < 0:
            sys.exit(0)
        return v

    for _ in range(nxt()):
        lo, hi = sorted((nxt(), nxt()))
        mine = cold(hi - lo) != lo
        print("first" if mine else "second", flush=True)
        while hi:
            if mine:
                lo, hi = move(lo, hi)
                print(lo, hi, flush=True)
            else:
                lo, hi = sorted((nxt(), nxt()))
            mine = not mine


main()
