# Normal Nim, played: move first exactly when the XOR of the piles is
# non-zero; each move brings the XOR back to zero (pile i -> a_i ^ s).
# The XOR and the count of non-empty piles are kept up to date move by move,
# so a long run costs one scan for the pile per move and nothing more.
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
        left = n - a.count(0)
        mine = s != 0
        out.write("first\n" if mine else "second\n")
        out.flush()
        while left:
            if mine:
                high = 1 << (s.bit_length() - 1) if s else 0
                i = next((i for i, v in enumerate(a) if v & high), None)
                if i is None:  # lost position: take one stone anywhere
                    i = next(i for i, v in enumerate(a) if v > 0)
                    x = a[i] - 1
                else:
                    x = a[i] ^ s
                out.write("%d %d\n" % (i + 1, x))
                out.flush()
            else:
                i = nxt() - 1
                x = nxt()
            s ^= a[i] ^ x
            if x == 0 and a[i]:
                left -= 1
            a[i] = x
            mine = not mine


main()
