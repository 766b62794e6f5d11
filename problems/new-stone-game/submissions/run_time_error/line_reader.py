# Mistake: reads n from one line and the piles from the next with input(); a
# blank line or stray layout makes int() fail.
out = []
while True:
    n = int(input())
    if n == 0:
        break
    a = sorted(map(int, input().split()))
    mirrored = n % 2 == 0 and all(a[i] == a[i + 1] for i in range(0, n, 2))
    out.append("0" if mirrored else "1")
print("\n".join(out))
