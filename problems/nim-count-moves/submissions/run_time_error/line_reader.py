# Mistake: reads the input line by line and takes the first number of each
# line as n; a blank line makes it index an empty list.
import sys

out = []
for line in sys.stdin:
    nums = list(map(int, line.split()))
    n = nums[0]
    if n == 0:
        break
    piles = nums[1:n + 1]
    s = 0
    for v in piles:
        s ^= v
    out.append(str(sum(1 for v in piles if v ^ s < v)))
print("\n".join(out))
