# Too slow: decides each game by plain recursion over the game tree, without
# remembering results: a pile is won when some move leaves a lost pile. The
# same piles are re-examined again and again; exponential in n.
import sys


def wins(n, m):
    for take in range(1, min(n, m) + 1):
        if not wins(n - take, m):
            return True
    return False


def main():
    sys.setrecursionlimit(10000)
    data = sys.stdin.buffer.read().split()
    c = int(data[0])
    out = []
    for i in range(c):
        n = int(data[1 + 2 * i])
        m = int(data[2 + 2 * i])
        out.append("first" if wins(n, m) else "second")
    print("\n".join(out))


main()
