# Too slow: decides the game by searching the whole game tree (no memo):
# a position is won when some move leads to a lost one. Exponential in the
# number of stones; fine for a few tiny piles, hopeless for 100 big ones.
import sys


def wins(piles):
    for i in range(len(piles)):
        a = piles[i]
        for take in range(a, 0, -1):
            piles[i] = a - take
            lost = not wins(piles)
            piles[i] = a
            if lost:
                return True
    return False


def main():
    sys.setrecursionlimit(1 << 20)
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    piles = [int(t) for t in data[1:1 + n]]
    print("Alice" if wins(piles) else "Bob")


main()
