# Mistake: chooses its side right, but keeps making normal-Nim moves until
# every pile is down to one stone, and only then plays for an odd count.
# The switch must come when only one pile holds more than one stone: from
# "2 1 2" it leaves "1 1" (XOR zero) and is forced to take the last stone.
import sys


def main():
    tokens = (int(t) for line in sys.stdin for t in line.split())

    def nxt():
        v = next(tokens, -1)
        if v < 0:
            sys.exit(0)
        return v

    def xor(a):
        s = 0
        for v in a:
            s ^= v
        return s

    for _ in range(nxt()):
        n = nxt()
        a = [nxt() for _ in range(n)]
        if max(a) <= 1:
            mine = a.count(1) % 2 == 0
        else:
            mine = xor(a) != 0
        print("first" if mine else "second", flush=True)
        while any(a):
            if mine:
                s = xor(a)
                if max(a) <= 1:  # the endgame rule, applied too late
                    i = a.index(1)
                    x = 0
                else:
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
