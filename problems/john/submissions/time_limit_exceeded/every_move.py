# Too slow: tries every possible move (every box, every number of candies
# left in it) and evaluates the resulting position from scratch, looking
# for one that is lost for the opponent. Correct, but about
# N * sum(A) * N steps per game: over 10^9 for the largest inputs.
import sys


def lost(piles):
    x = 0
    big = False
    for a in piles:
        x ^= a
        if a > 1:
            big = True
    if not big:
        return sum(piles) % 2 == 1
    return x == 0


def first_wins(piles):
    if not any(piles):
        return True
    for i in range(len(piles)):
        keep = piles[i]
        for left in range(keep):
            piles[i] = left
            if lost(piles):
                piles[i] = keep
                return True
        piles[i] = keep
    return False


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        piles = [int(x) for x in data[pos + 1:pos + 1 + n]]
        pos += n + 1
        out.append("John" if first_wins(piles) else "Brother")
    print("\n".join(out))


main()
