# Mistake: always chooses "first", even when the XOR of the piles is zero
# and the first mover loses (e.g. "2 3 3"); then it can only stall.
import sys


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
        mine = True
        print("first", flush=True)
        while any(a):
            if mine:
                s = 0
                for v in a:
                    s ^= v
                i = next((i for i, v in enumerate(a) if v ^ s < v), None)
                if i is None:
                    i = next(i for i, v in enumerate(a) if v > 0)
                    x = 0  # give up: empty the pile
                else:
                    x = a[i] ^ s
                print(i + 1, x, flush=True)
            else:
                i = nxt() - 1
                x = nxt()
            a[i] = x
            mine = not mine


main()
