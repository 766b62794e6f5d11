#!/usr/bin/env python3
"""The answers of a game described in YAML (`game:`), written by
`grundy export` as the package's accepted submission when the problem has
no reference: the position of each case is decided by the theorem grundy
proved for the game (below), as `grundy verify` decides it.
"""
import sys

FRAMING = "@FRAMING@"  # single, counted, eof or zero
HEAPS = @HEAPS@  # True: n, the parameters, n heaps; False: one heap n, the parameters
PARAMS = @PARAMS@  # how many parameters follow n
THEORY = @THEORY@
WIN, LOSE = "@WIN@", "@LOSE@"


@HEAP_VALUES@


def wins(params, heaps):
    kind = THEORY[0]
    if kind == "sum":
        x = 0
        for a in heaps:
            x ^= g(a)
        return x != 0
    if kind == "misere-nim":
        if all(a <= 1 for a in heaps):
            return sum(heaps) % 2 == 0
        x = 0
        for a in heaps:
            x ^= a
        return x != 0
    if kind == "moore":
        k = params[THEORY[2]] if THEORY[1] is None else THEORY[1]
        for bit in range(64):
            if sum((a >> bit) & 1 for a in heaps) % (k + 1):
                return True
        return False
    x = 0
    for a in heaps[::2]:
        x ^= a
    return x != 0


def main():
    data = sys.stdin.buffer.read().split()
    pos = 0
    out = []
    total = None
    if FRAMING == "counted":
        total = int(data[0])
        pos = 1
    while True:
        if total is not None and len(out) == total:
            break
        if FRAMING == "eof" and pos >= len(data):
            break
        n = int(data[pos])
        pos += 1
        if FRAMING == "zero" and n == 0:
            break
        params = [int(t) for t in data[pos:pos + PARAMS]]
        pos += PARAMS
        if HEAPS:
            heaps = [int(t) for t in data[pos:pos + n]]
            pos += n
        else:
            heaps = [n]
        out.append(WIN if wins(params, heaps) else LOSE)
        if FRAMING == "single":
            break
    sys.stdout.write("\n".join(out) + "\n")


main()
