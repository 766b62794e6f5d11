"""Input validator: exits 42 when stdin is a valid input, 43 (with the
reason on stderr) when it is not. Strict about layout: one number per line,
no leading zeros or signs, a final newline, nothing after the last game.
"""
import re
import sys

NUMBER = re.compile(r"(0|[1-9][0-9]*)\Z")


def fail(line, why):
    sys.stderr.write(f"line {line}: {why}\n")
    sys.exit(43)


def number(lines, k, low, high, name):
    if k >= len(lines):
        fail(k + 1, f"expected {name}, found the end of the input")
    if not NUMBER.match(lines[k]):
        fail(k + 1, f"expected {name} alone on its line, found {lines[k]!r}")
    value = int(lines[k])
    if not low <= value <= high:
        fail(k + 1, f"{name} = {value} is outside {low}..{high}")
    return value


def main():
    text = sys.stdin.read()
    if not text.endswith("\n"):
        fail(text.count("\n") + 1, "the input must end with a newline")
    lines = text[:-1].split("\n")
    games = number(lines, 0, 1, 100, "T")
    for k in range(1, games + 1):
        number(lines, k, 1, 10**9, "n")
    if len(lines) > games + 1:
        fail(games + 2, "unexpected text after the last game")
    sys.exit(42)


main()
