# Wrong: ignores k and plays Nim (XOR of the heaps); right only for k = 1.
import sys

data = sys.stdin.read().split()
n = int(data[0])
x = 0
for t in data[2:2 + n]:
    x ^= int(t)
print("Alice" if x else "Bob")
