"""Test generator: generator.py SEED CASES MAX_N prints one input.

About half the piles are multiples of 4 (lost for the first player), so
that answering always `First` or always `Second` fails. The same seed gives
the same input on any machine (Python's random with an integer seed).
"""
import random
import sys


def main():
    seed, cases, max_n = (int(a) for a in sys.argv[1:4])
    rng = random.Random(seed)
    print(cases)
    for _ in range(cases):
        if max_n >= 4 and rng.random() < 0.5:
            n = 4 * rng.randint(1, max_n // 4)
        else:
            n = rng.randint(1, max_n)
        print(n)


main()
