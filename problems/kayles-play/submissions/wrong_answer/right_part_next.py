# Wrong: puts the right part of a split row just after the row, not at
# the end of the list, so its row numbers drift from the judge's.
import sys


def table(top):
    g = [0] * top
    for n in range(1, top):
        seen = {g[x] ^ g[n - k - x] for k in (1, 2) if k <= n for x in range(n - k + 1)}
        v = 0
        while v in seen:
            v += 1
        g[n] = v
    return g


G = table(128)


def tokens():
    for line in sys.stdin:
        for t in line.split():
            yield int(t)


def main():
    read = tokens()
    t = next(read)
    for _ in range(t):
        n = next(read)
        if n < 0:
            return
        rows = [next(read) for _ in range(n)]
        x = 0
        for a in rows:
            x ^= G[a]
        mine = x != 0
        print("first" if mine else "second", flush=True)
        while any(rows):
            if mine:
                x = 0
                for a in rows:
                    x ^= G[a]
                move = None
                for i, a in enumerate(rows):
                    want = x ^ G[a]
                    for k in (1, 2):
                        for left in range(a - k + 1):
                            if move is None and k <= a and G[left] ^ G[a - k - left] == want:
                                move = (i, left, a - k - left)
                if move is None:
                    # Its own count says the position is lost: it takes
                    # one pin from the end of the first row left.
                    i = next(i for i, a in enumerate(rows) if a > 0)
                    move = (i, rows[i] - 1, 0)
                i, left, right = move
                print(i + 1, left, right, flush=True)
            else:
                i = next(read)
                if i < 0:
                    return
                left, right = next(read), next(read)
                i -= 1
            rows[i] = left
            if right > 0:
                rows.insert(i + 1, right)
            mine = not mine


try:
    main()
except StopIteration:
    # The judge ended the game after a move it rejects: its input is over,
    # and the program stops as the protocol asks, without a crash.
    pass
