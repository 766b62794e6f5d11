# Mistake: applies the single-stone rule (even count wins) as soon as some
# pile is a single stone, instead of only when all piles are. 1 1 2 has a
# pile of 2: the first player wins (take the 2), but this says Y.
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
piles = [int(t) for t in data[1:1 + n]]
x = 0
for a in piles:
    x ^= a
if 1 in piles:
    first = n % 2 == 0
else:
    first = x != 0
print("X" if first else "Y")
