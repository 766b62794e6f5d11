# Misère Nim, played: normal Nim while two or more piles exceed one stone;
# once only one does, empty it or leave one so that an odd number of single
# stones remains; with single stones only, an even number wins. The XOR and
# the counts of single stones and of bigger piles are kept up to date move
# by move, so a long run costs at most one scan per move.
import sys


def main():
    lines = iter(sys.stdin.buffer.readline, b"")
    tokens = (int(t) for line in lines for t in line.split())
    out = sys.stdout

    def nxt():
        v = next(tokens, -1)
        if v < 0:  # end of input or -1: the judge has stopped
            sys.exit(0)
        return v

    for _ in range(nxt()):
        n = nxt()
        a = [nxt() for _ in range(n)]
        s = 0
        for v in a:
            s ^= v
        ones = a.count(1)
        big = n - ones - a.count(0)

        def winning_move():
            """The winning move (pile, stones left), or None when lost."""
            if big == 1:
                i = next(i for i, v in enumerate(a) if v > 1)
                return i, 0 if ones % 2 == 1 else 1
            if big == 0:
                return (a.index(1), 0) if ones and ones % 2 == 0 else None
            high = 1 << (s.bit_length() - 1) if s else 0
            i = next((i for i, v in enumerate(a) if v & high), None)
            return None if i is None else (i, a[i] ^ s)

        mine = winning_move() is not None
        out.write("first\n" if mine else "second\n")
        out.flush()
        while ones or big:
            if mine:
                m = winning_move()
                if m is None:  # lost position: take one stone anywhere
                    i = next(i for i, v in enumerate(a) if v > 0)
                    m = i, a[i] - 1
                i, x = m
                out.write("%d %d\n" % (i + 1, x))
                out.flush()
            else:
                i = nxt() - 1
                x = nxt()
            s ^= a[i] ^ x
            ones += (x == 1) - (a[i] == 1)
            big += (x > 1) - (a[i] > 1)
            a[i] = x
            mine = not mine


main()
