# Too slow: looks for a winning move by trying every pile and every number
# of matches to leave, checking whether the XOR becomes zero: O(M * ai) per
# game, hopeless with piles of 10^7.
import sys


def first_wins(piles):
    x = 0
    for a in piles:
        x ^= a
    for a in piles:
        rest = x ^ a
        for leave in range(a):
            if leave == rest:
                return True
    return False


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    i = 0
    while i < len(data):
        m = int(data[i])
        piles = [int(t) for t in data[i + 1:i + 1 + m]]
        out.append("Yes" if first_wins(piles) else "No")
        i += m + 1
    print("\n".join(out))


main()
