# Mistake: reads n from the first line and expects all piles on the second
# line. The piles may be spread over several lines; then there are fewer
# numbers than n and indexing past the end raises IndexError.
n = int(input())
a = list(map(int, input().split()))
x = 0
for i in range(n):
    x ^= a[i]
print("Yes" if x else "No")
