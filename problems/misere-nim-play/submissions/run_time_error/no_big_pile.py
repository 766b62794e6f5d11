# Mistake: in the endgame it always looks up "the" pile with more than one
# stone, even when there is none: with single stones only on its turn (as in
# "2 1 1") big[0] raises IndexError and the program dies mid-run.
import sys


def winning_move(a):
    big = [i for i, v in enumerate(a) if v > 1]
    ones = a.count(1)
    if len(big) <= 1:
        return big[0], 0 if ones % 2 == 1 else 1
    s = 0
    for v in a:
        s ^= v
    for i, v in enumerate(a):
        if v ^ s < v:
            return i, v ^ s
    return None


def first_wins(a):
    if max(a) <= 1:
        return a.count(1) % 2 == 0
    s = 0
    for v in a:
        s ^= v
    return s != 0


def main():
    tokens = (int(t) for line in sys.stdin for t in line.split())

    def nxt():
        v = next(tokens, -1)
        if v < 0:
            sys.exit(0)
        return v

    for _ in range(nxt()):
        n = nxt()
        a = [nxt() for _ in range(n)]
        mine = first_wins(a)
        print("first" if mine else "second", flush=True)
        while any(a):
            if mine:
                m = winning_move(a)
                if m is None:
                    i = next(i for i, v in enumerate(a) if v > 0)
                    m = i, a[i] - 1
                i, x = m
                print(i + 1, x, flush=True)
            else:
                i = nxt() - 1
                x = nxt()
            a[i] = x
            mine = not mine


main()
