# Wrong: takes the period 12 from the start, as if the values had no
# exceptions below 71.
import sys

PERIOD = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]  # G(72) ... G(83)
data = sys.stdin.buffer.read().split()
n = int(data[0])
x = 0
for t in data[1:1 + n]:
    a = int(t)
    x ^= PERIOD[(a - 72) % 12]
print("Alice" if x else "Bob")
