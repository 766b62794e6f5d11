# Normal Nim, played: move first exactly when the XOR of the piles is
# non-zero; each move brings the XOR back to zero (pile i -> a_i ^ s).
import sys


def numbers():
    for line in sys.stdin:
        for token in line.split():
            yield int(token)


def main():
    judge = numbers()

    def nxt():
        v = next(judge, -1)
        if v < 0:  # end of input or -1: the judge has stopped
            sys.exit(0)
        return v

    for _ in range(nxt()):
        n = nxt()
        a = [nxt() for _ in range(n)]
        s = 0
        for v in a:
            s ^= v
        mine = s != 0
        print("first" if mine else "second", flush=True)
        while any(a):
            if mine:
                s = 0
                for v in a:
                    s ^= v
                i = next((i for i, v in enumerate(a) if v ^ s < v), None)
                if i is None:  # lost position: take one stone anywhere
                    i = next(i for i, v in enumerate(a) if v > 0)
                    x = a[i] - 1
                else:
                    x = a[i] ^ s
                print(i + 1, x, flush=True)
            else:
                i = nxt() - 1
                x = nxt()
            a[i] = x
            mine = not mine


main()
