#!/usr/bin/env python3
"""Interactor of grundy's played games (nim-play, misere-nim-play,
wythoff-play) for an ICPC interactive package, written by `grundy export`.

Run as `play.py input answer feedback_dir/`; the game is the first word
of this file's GAME line. The judge plays a winning move whenever it has
one; when it is losing it removes a whole pile (the smaller Wythoff heap),
which keeps games short. Once the submission has moved into a lost
position, the game is declared lost after 1000 more moves. Exit 42
accepts, 43 rejects with feedback_dir/judgemessage.txt. The protocol is
the one all exported games share (below).
"""
from math import isqrt

GAME = "@GAME@"
MISERE = GAME == "misere-nim-play"
WYTHOFF = GAME == "wythoff-play"

@PROTOCOL@


def wa(k):
    return (k + isqrt(5 * k * k)) // 2


def wythoff_losing(a, b):
    a, b = min(a, b), max(a, b)
    return wa(b - a) == a


def wythoff_win(a, b):
    """A move (a', b') to a losing position, or None."""
    swap = a > b
    if swap:
        a, b = b, a
    d = b - a
    target = wa(d)
    if target == a:
        return None
    if a > target:
        m = (target, target + d)
    else:
        k0 = (isqrt(5 * a * a) - a) // 2
        m = None
        for k in range(max(0, k0 - 2), k0 + 3):
            if wa(k) == a and b > a + k:
                m = (a, a + k)
                break
        if m is None:
            k1 = (3 * a - isqrt(5 * a * a)) // 2
            for k in range(max(0, k1 - 2), k1 + 3):
                if wa(k) + k == a:
                    m = (a, wa(k))
                    break
    if m is None:
        return None
    return (m[1], m[0]) if swap else m


def nim_losing(p):
    x = 0
    for v in p:
        x ^= v
    if MISERE and all(v <= 1 for v in p):
        return x == 1
    return x == 0


def nim_win(p):
    """A move (i, x) to a losing position, or None."""
    if nim_losing(p):
        return None
    if MISERE:
        big = [i for i, v in enumerate(p) if v > 1]
        ones = sum(1 for v in p if v == 1)
        if len(big) == 1:
            return (big[0], 1 if ones % 2 == 0 else 0)
        if not big:
            return (next(i for i, v in enumerate(p) if v == 1), 0)
    x = 0
    for v in p:
        x ^= v
    for i, v in enumerate(p):
        if v ^ x < v:
            return (i, v ^ x)
    return None


def read_start(words, at):
    if WYTHOFF:
        start = [int(words[at]), int(words[at + 1])]
        return start, "%d %d" % tuple(start), at + 2
    n = int(words[at])
    start = [int(w) for w in words[at + 1:at + 1 + n]]
    return start, "%d %s" % (n, " ".join(map(str, start))), at + 1 + n


def over(pos):
    return not any(pos)


def their_move(pos):
    if WYTHOFF:
        a, b = number("a heap size"), number("a heap size")
        da, db = pos[0] - a, pos[1] - b
        ok = a >= 0 and b >= 0 and (
            (da > 0 and db == 0) or (da == 0 and db > 0) or (da == db > 0))
        if not ok:
            reject("illegal move `%d %d` from `%d %d`" % (a, b, pos[0], pos[1]))
        return [a, b]
    i, x = number("a pile number"), number("a pile size")
    if not (1 <= i <= len(pos)) or x >= pos[i - 1]:
        reject("illegal move `%d %d`" % (i, x))
    pos[i - 1] = x
    return pos


def judge_move(pos):
    if WYTHOFF:
        m = wythoff_win(pos[0], pos[1])
        wins = m is not None
        if m is None:
            m = (0, pos[1]) if pos[0] <= pos[1] else (pos[0], 0)
        return list(m), "%d %d" % m, wins
    m = nim_win(pos)
    wins = m is not None
    if m is None:
        i = max(range(len(pos)), key=lambda j: pos[j])
        m = (i, 0)
    pos[m[0]] = m[1]
    return pos, "%d %d" % (m[0] + 1, m[1]), wins


main()
