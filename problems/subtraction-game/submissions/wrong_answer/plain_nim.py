# Wrong: plays it as Nim (XOR of the heap sizes), as if any number of
# stones could be taken.
import sys

data = sys.stdin.read().split()
n = int(data[0])
x = 0
for t in data[1:1 + n]:
    x ^= int(t)
print("First" if x else "Second")
