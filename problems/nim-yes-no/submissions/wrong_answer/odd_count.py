# Wrong idea: "equal piles cancel out, so the first player wins when some
# pile size occurs an odd number of times". Right for mirrored positions,
# wrong for 1 2 3 (every size occurs once, yet the first player loses).
import sys
from collections import Counter

data = sys.stdin.buffer.read().split()
n = int(data[0])
counts = Counter(data[1:1 + n])
print("Yes" if any(c % 2 for c in counts.values()) else "No")
