# Wrong idea: "the first player wins when the total number of stones is odd".
# True for a single pile of 1 or for losing positions (which always have an
# even total), but wrong for winning positions such as 1 3 (total 4).
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
total = sum(int(t) for t in data[1:1 + n])
print("Alice" if total % 2 == 1 else "Bob")
