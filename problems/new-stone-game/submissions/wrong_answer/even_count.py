# Mistake: decides by the number of piles alone (an even count loses),
# forgetting that the piles must also pair up into equal twins.
import sys

data = sys.stdin.buffer.read().split()
out = []
pos = 0
while True:
    n = int(data[pos])
    if n == 0:
        break
    pos += 1 + n
    out.append("0" if n % 2 == 0 else "1")
print("\n".join(out))
