# Mistake: reads positions until the end of the input and treats the final
# "0" as a position with no piles, printing an extra 0.
import sys

data = sys.stdin.buffer.read().split()
out = []
pos = 0
while pos < len(data):
    n = int(data[pos])
    piles = list(map(int, data[pos + 1:pos + 1 + n]))
    pos += 1 + n
    s = 0
    for v in piles:
        s ^= v
    out.append(str(sum(1 for v in piles if v ^ s < v)))
print("\n".join(out))
