# The interactor protocol every exported game shares, written into its
# interactor by `grundy export`: run as `interactor input answer
# feedback_dir/`, it reads the games from the input file, tells the
# submission each start, plays them in turn and exits 42 to accept or 43
# to reject with feedback_dir/judgemessage.txt. The game's own part
# defines:
#   read_start(words, at): a game's start in the input file's words at
#     `at`, the line that tells it to the submission, and where the next
#     game begins;
#   over(pos): whether no move is left;
#   their_move(pos): the submission's move read, checked (an illegal one
#     rejected) and made: the position after it;
#   judge_move(pos): the judge's move made: the position after it, the
#     line that tells it, and whether it was a winning move;
#   MISERE: whether the player who makes the last move loses.
import os
import sys

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


def play(start):
    """One game from `start`. The judge plays a winning move whenever it
    has one; once the submission has moved into a lost position, the game
    is declared lost after 1000 more moves."""
    pos = list(start)
    choice = token("`first` or `second`")
    if choice not in ("first", "second"):
        reject("expected `first` or `second`, found `%s`" % choice[:40])
    theirs = choice == "first"
    last = None
    judge_winning_moves = 0
    while not over(pos):
        if theirs:
            pos = their_move(pos)
            last = "submission"
        else:
            pos, line, winning = judge_move(pos)
            if winning:
                judge_winning_moves += 1
            say(line)
            last = "judge"
            if judge_winning_moves > 1000:
                reject("the game was lost 1000 moves ago")
        theirs = not theirs
    if (last == "submission") == MISERE:
        reject("lost the game from %s" % " ".join(map(str, start)))


def main():
    with open(sys.argv[1]) as f:
        words = f.read().split()
    games = int(words[0])
    at = 1
    say(str(games))
    for _ in range(games):
        start, line, at = read_start(words, at)
        say(line)
        play(start)
    rest = next(TOK, None)
    if rest is not None:
        reject("output after the last game: `%s`" % rest[:40])
    os._exit(42)
