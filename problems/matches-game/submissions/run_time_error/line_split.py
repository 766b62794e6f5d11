# Mistake: treats every line as one game and reads its first number as M.
# A blank line between games has no numbers, so indexing the first one
# raises IndexError.
import sys

out = []
for line in sys.stdin:
    nums = [int(t) for t in line.split()]
    m = nums[0]
    x = 0
    for a in nums[1:1 + m]:
        x ^= a
    out.append("Yes" if x else "No")
print("\n".join(out))
