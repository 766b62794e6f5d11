# Wrong: adds the heaps up and judges the total as one heap.
import sys

data = sys.stdin.read().split()
n = int(data[0])
total = sum(int(t) for t in data[1:1 + n])
print("Second" if total % 7 in (0, 2) else "First")
