# Too slow: walks every heap size up to the largest heap, computing each
# Grundy value from the four before it.
import sys

data = sys.stdin.read().split()
n = int(data[0])
heaps = [int(t) for t in data[1:1 + n]]
wanted = {}
for a in heaps:
    wanted[a] = None
last = [0, 0, 0, 0]  # G(s - 4), G(s - 3), G(s - 2), G(s - 1)
for s in range(1, max(heaps) + 1):
    seen = set()
    if s >= 1:
        seen.add(last[3])
    if s >= 3:
        seen.add(last[1])
    if s >= 4:
        seen.add(last[0])
    v = 0
    while v in seen:
        v += 1
    last = last[1:] + [v]
    if s in wanted:
        wanted[s] = v
x = 0
for a in heaps:
    x ^= wanted[a]
print("First" if x else "Second")
