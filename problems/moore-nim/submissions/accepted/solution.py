# Moore's theorem: lost for the mover exactly when every binary digit is
# set in a multiple of k + 1 heaps.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, k = int(data[0]), int(data[1])
    heaps = [int(t) for t in data[2:2 + n]]
    lost = True
    for b in range(64):
        c = sum(1 for a in heaps if a >> b & 1)
        if c % (k + 1):
            lost = False
            break
    print("Bob" if lost else "Alice")


main()
