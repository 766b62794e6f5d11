# Mistake: reads each game as "m n" instead of "n m", so the pile size and
# the move bound trade places.
import sys

data = sys.stdin.buffer.read().split()
c = int(data[0])
for i in range(c):
    m = int(data[1 + 2 * i])
    n = int(data[2 + 2 * i])
    print("first" if n % (m + 1) else "second")
