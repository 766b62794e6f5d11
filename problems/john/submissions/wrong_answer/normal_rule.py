# Mistake: answers as in normal Nim (XOR non-zero wins), forgetting that
# eating the last candy loses. Wrong when every box holds one candy.
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
pos = 1
for _ in range(t):
    n = int(data[pos])
    x = 0
    for tok in data[pos + 1:pos + 1 + n]:
        x ^= int(tok)
    pos += n + 1
    print("John" if x else "Brother")
