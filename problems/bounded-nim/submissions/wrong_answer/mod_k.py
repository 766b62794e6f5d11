# Mistake: reduces the piles modulo k instead of k + 1 (period off by one).
import sys

data = sys.stdin.buffer.read().split()
n, k = int(data[0]), int(data[1])
x = 0
for tok in data[2:2 + n]:
    x ^= int(tok) % k
print("Alice" if x else "Bob")
