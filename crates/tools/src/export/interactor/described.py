#!/usr/bin/env python3
"""Interactor of a game described in YAML (`game:` with `question: play`)
for an ICPC interactive package, written by `grundy export`.

Run as `described.py input answer feedback_dir/`. The game's moves and one
heap's Grundy values (with their proven period) are written below by
grundy; a position is a sum of heaps. The judge plays a winning move
whenever it has one; when it is losing it takes as many tokens as it may
from the largest heap, which keeps games short. Once the submission has
moved into a lost position, the game is declared lost after 1000 more
moves. Exit 42 accepts, 43 rejects with feedback_dir/judgemessage.txt.
The protocol is the one all exported games share (below).
"""
from functools import lru_cache

TAKE_ANY = @TAKE_ANY@
SETS = @SETS@
UP_TO = @UP_TO@
FRACTION = @FRACTION@
OCTAL = @OCTAL@
SPLITS = @SPLITS@
# Only normal play is written out: the last to move wins.
MISERE = False

@PROTOCOL@


@HEAP_VALUES@


def mask(a, k):
    if k > a:
        return 0
    m = 0
    if k >= 1 and (TAKE_ANY or k in SETS or k <= UP_TO
                   or (FRACTION and k * FRACTION[1] <= a * FRACTION[0])):
        m |= 3
    if k < len(OCTAL):
        m |= OCTAL[k]
    r = a - k
    possible = (1 if r == 0 else 0) | (2 if r >= 1 and k >= 1 else 0) | (4 if r >= 2 else 0)
    return m & possible


def takes(a):
    if TAKE_ANY or FRACTION:
        return range(0 if OCTAL and OCTAL[0] else 1, a + 1)
    ks = set(range(1, min(UP_TO, a) + 1)) | {k for k in SETS if k <= a}
    ks |= {k for k in range(len(OCTAL)) if k <= a and OCTAL[k]}
    return sorted(ks)


def options(a):
    """Every way to play heap a: (left, right) heaps left."""
    for k in takes(a):
        m = mask(a, k)
        r = a - k
        if m & 1:
            yield (0, 0)
        if m & 2:
            yield (r, 0)
        if m & 4:
            for x in range(1, r):
                yield (x, r - x)


@lru_cache(maxsize=1 << 16)
def option_of_value(a, want):
    """A way to play heap a leaving value `want`, or None."""
    for left, right in options(a):
        if g(left) ^ g(right) == want:
            return (left, right)
    return None


@lru_cache(maxsize=1 << 16)
def playable(a):
    return next(iter(options(a)), None) is not None


def value(p):
    x = 0
    for a in p:
        x ^= g(a)
    return x


def winning(p):
    x = value(p)
    if x == 0:
        return None
    for i, a in enumerate(p):
        m = option_of_value(a, x ^ g(a))
        if m is not None:
            return (i, m[0], m[1])
    return None


def any_move(p):
    i = max(range(len(p)), key=lambda j: p[j])
    best = None
    for left, right in options(p[i]):
        if best is None or left + right < best[0] + best[1]:
            best = (left, right)
    return None if best is None else (i, best[0], best[1])


def over(p):
    return not any(playable(a) for a in p)


def apply(p, i, left, right):
    p[i] = left
    if right > 0:
        p.append(right)


def legal(p, i, left, right):
    if not 1 <= i <= len(p):
        return False
    a = p[i - 1]
    if left + right >= a:
        return False
    bit = 1 if left == 0 and right == 0 else (2 if left == 0 or right == 0 else 4)
    return mask(a, a - left - right) & bit != 0


def read_start(words, at):
    n = int(words[at])
    start = [int(w) for w in words[at + 1:at + 1 + n]]
    return start, "%d %s" % (n, " ".join(map(str, start))), at + 1 + n


def their_move(pos):
    i = number("a heap number")
    left = number("tokens left")
    right = number("tokens left on the other side") if SPLITS else 0
    if not legal(pos, i, left, right):
        reject("illegal move `%d %d%s`" % (i, left, " %d" % right if SPLITS else ""))
    apply(pos, i - 1, left, right)
    return pos


def judge_move(pos):
    m = winning(pos)
    wins = m is not None
    if m is None:
        m = any_move(pos)
    i, left, right = m
    apply(pos, i, left, right)
    line = "%d %d %d" % (i + 1, left, right) if SPLITS else "%d %d" % (i + 1, left)
    return pos, line, wins


main()
