# Wrong answer: believes an odd pile wins (true for 1 and 3, false for 6).
games = int(input())
for _ in range(games):
    n = int(input())
    print("First" if n % 2 == 1 else "Second")
