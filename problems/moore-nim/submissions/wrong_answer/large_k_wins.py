# Wrong: when k is below n it falls back to Nim, as if only k >= n (take
# everything) were special.
import sys

data = sys.stdin.read().split()
n, k = int(data[0]), int(data[1])
heaps = [int(t) for t in data[2:2 + n]]
if k >= n:
    print("Alice")
else:
    x = 0
    for a in heaps:
        x ^= a
    print("Alice" if x else "Bob")
