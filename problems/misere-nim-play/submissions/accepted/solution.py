# Misère Nim, played: normal Nim while two or more piles exceed one stone;
# once only one does, empty it or leave one so that an odd number of single
# stones remains; with single stones only, an even number wins.
import sys


def winning_move(a):
    """The winning move (pile, stones left), or None from a lost position."""
    big = [i for i, v in enumerate(a) if v > 1]
    ones = a.count(1)
    if len(big) == 1:
        return big[0], 0 if ones % 2 == 1 else 1
    if not big:
        return (a.index(1), 0) if ones % 2 == 0 and ones > 0 else None
    s = 0
    for v in a:
        s ^= v
    for i, v in enumerate(a):
        if v ^ s < v:
            return i, v ^ s
    return None


def main():
    tokens = (int(t) for line in sys.stdin for t in line.split())

    def nxt():
        v = next(tokens, -1)
        if v < 0:  # end of input or -1: the judge has stopped
            sys.exit(0)
        return v

    for _ in range(nxt()):
        n = nxt()
        a = [nxt() for _ in range(n)]
        mine = winning_move(a) is not None
        print("first" if mine else "second", flush=True)
        while any(a):
            if mine:
                m = winning_move(a)
                if m is None:  # lost position: take one stone anywhere
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
