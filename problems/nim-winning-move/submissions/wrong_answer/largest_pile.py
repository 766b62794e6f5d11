# Mistake: always plays on the largest pile, reducing it to a_max xor s. When
# the largest pile lacks the top bit of s that "move" adds stones, or leaves a
# position that is not losing.
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
a = list(map(int, data[1:n + 1]))
s = 0
for v in a:
    s ^= v
if s == 0:
    print("lose")
else:
    i = max(range(n), key=lambda j: a[j])
    print(i + 1, a[i] ^ s)
