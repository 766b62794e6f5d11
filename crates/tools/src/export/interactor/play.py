#!/usr/bin/env python3
"""Interactor of grundy's played games (nim-play, misere-nim-play,
wythoff-play) for an ICPC interactive package, written by `grundy export`.

Run as `play.py input answer feedback_dir/`; the game is the first word
of this file's GAME line. The judge plays a winning move whenever it has
one; when it is losing it removes a whole pile (the smaller Wythoff heap),
which keeps games short. Once the submission has moved into a lost
position, the game is declared lost after 1000 more moves. Exit 42
accepts, 43 rejects with feedback_dir/judgemessage.txt.
"""
import os
import sys
from math import isqrt

GAME = "@GAME@"
feedback = sys.argv[3] if len(sys.argv) > 3 else "./"
out = sys.stdout


def reject(why):
    with open(feedback + "judgemessage.txt", "w") as f:
        f.write(why + "\n")
    try:
        out.write("-1\n")
        out.flush()
    except OSError:
        pass
    # No flush at exit: the submission may be gone (a broken pipe there
    # would turn the verdict into a failure of the interactor).
    os._exit(43)


def tokens():
    # Bytes, read as Latin-1: any output at all is a verdict, never a
    # decoding failure of the interactor.
    for line in sys.stdin.buffer:
        for t in line.split():
            yield t.decode("latin-1")


TOK = tokens()


def token(what):
    t = next(TOK, None)
    if t is None:
        reject("the output ended where %s was expected" % what)
    return t


def number(what):
    t = token(what)
    if not t or any(c not in "0123456789" for c in t):
        reject("expected %s, found `%s`" % (what, t[:40]))
    return int(t)


def say(line):
    try:
        out.write(line + "\n")
        out.flush()
    except OSError:
        reject("the submission stopped reading")


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
    if GAME == "misere-nim-play" and all(v <= 1 for v in p):
        return x == 1
    return x == 0


def nim_win(p):
    """A move (i, x) to a losing position, or None."""
    if nim_losing(p):
        return None
    if GAME == "misere-nim-play":
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


def play(start):
    wythoff = GAME == "wythoff-play"
    pos = list(start)
    choice = token("`first` or `second`")
    if choice not in ("first", "second"):
        reject("expected `first` or `second`, found `%s`" % choice[:40])
    theirs = choice == "first"
    last = None
    judge_winning_moves = 0
    while any(pos):
        if theirs:
            if wythoff:
                a, b = number("a heap size"), number("a heap size")
                da, db = pos[0] - a, pos[1] - b
                ok = a >= 0 and b >= 0 and (
                    (da > 0 and db == 0) or (da == 0 and db > 0) or (da == db > 0))
                if not ok:
                    reject("illegal move `%d %d` from `%d %d`" % (a, b, pos[0], pos[1]))
                pos = [a, b]
            else:
                i, x = number("a pile number"), number("a pile size")
                if not (1 <= i <= len(pos)) or x >= pos[i - 1]:
                    reject("illegal move `%d %d`" % (i, x))
                pos[i - 1] = x
            last = "submission"
        else:
            if wythoff:
                m = wythoff_win(pos[0], pos[1])
                if m is None:
                    m = (0, pos[1]) if pos[0] <= pos[1] else (pos[0], 0)
                else:
                    judge_winning_moves += 1
                pos = list(m)
                say("%d %d" % m)
            else:
                m = nim_win(pos)
                if m is None:
                    i = max(range(len(pos)), key=lambda j: pos[j])
                    m = (i, 0)
                else:
                    judge_winning_moves += 1
                pos[m[0]] = m[1]
                say("%d %d" % (m[0] + 1, m[1]))
            last = "judge"
            if judge_winning_moves > 1000:
                reject("the game was lost 1000 moves ago")
        theirs = not theirs
    submission_won = (last == "submission") != (GAME == "misere-nim-play")
    if not submission_won:
        reject("lost the game from %s" % " ".join(map(str, start)))


def main():
    with open(sys.argv[1]) as f:
        words = f.read().split()
    games = int(words[0])
    at = 1
    say(str(games))
    for _ in range(games):
        if GAME == "wythoff-play":
            start = [int(words[at]), int(words[at + 1])]
            at += 2
            say("%d %d" % tuple(start))
        else:
            n = int(words[at])
            start = [int(w) for w in words[at + 1:at + 1 + n]]
            at += 1 + n
            say("%d %s" % (n, " ".join(map(str, start))))
        play(start)
    rest = next(TOK, None)
    if rest is not None:
        reject("output after the last game: `%s`" % rest[:40])
    os._exit(42)


main()
