#!/usr/bin/env bash
# Interactive judging against bare C, measured in the same run on the same
# machine:
#
#  (a) moves per second through grundy's pipe pair (a judged nim-play run:
#      the submission in the sandbox, the built-in interactor in the judge)
#      against a bare two-process ping-pong in C exchanging as many move
#      lines;
#  (b) one nim-play run of GAMES games judged by grundy's built-in
#      interactor, against the same games played by a bare C interactor
#      (two processes, two pipes, no sandbox, no judge);
#  (c) the same run judged by grundy with that C interactor as the
#      problem's program interactor (ICPC style: `interactor: {icpc: …}`,
#      its own sandbox, exit 42/43), against the same bare C run.
#
# The player is problems/nim-play/submissions/accepted/solution.c in every
# case. Each figure is the best of REPS runs (the machine may be shared);
# grundy's figures are the test's wall time from `judge --json` (starting
# the sandboxed programs included), and the whole command's time is shown
# beside them.
#
# Usage: bench/interactive.sh [GAMES] [PILES] [REPS]    (defaults 100 100 3)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-100}
piles=${2:-100}
reps=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
grundy="$(bash "$(dirname "$0")/release_dir.sh")/grundy"
player_src="$here/problems/nim-play/submissions/accepted/solution.c"

# The games: generated once, then written inline into both problems so
# that both judge exactly the same start positions.
mkdir -p "$work/problems/bench-play" "$work/problems/bench-program"
cat > "$work/problems/bench-play/problem.yaml" <<YAML
id: bench-play
title: Bench
seed: 1
limits:
  time: 10s
interactor: nim-play
groups:
  - name: all
    tests:
      - generator: nim-play-games
        params: {games: $games, n: $piles, losing: 0.5}
YAML
"$grundy" gen bench-play --problems "$work/problems" --cache "$work/cache" --out "$work/gen" > /dev/null 2>&1
input=$(ls "$work"/gen/*.in | head -n 1)
python3 - "$input" "$work/problems" <<'PY'
import json, sys
games = open(sys.argv[1]).read()
for id, interactor in [("bench-play", "nim-play"), ("bench-program", "{icpc: interactor.c}")]:
    with open(f"{sys.argv[2]}/{id}/problem.yaml", "w") as f:
        f.write(f"id: {id}\ntitle: Bench\nlimits:\n  time: 10s\ninteractor: {interactor}\n"
                f"groups:\n  - name: all\n    tests:\n      - input: {json.dumps(games)}\n")
PY

# The bare C interactor, also the ICPC program interactor of (c): it reads
# the games from its first argument, wins when it can (leaving a nim-sum of
# 0), otherwise empties the largest pile (games stay short), and exits 42
# when the player won every game, 43 otherwise. It reports its move count
# on stderr.
cat > "$work/problems/bench-program/interactor.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static long moves;
static void wrong(void) { printf("-1\n"); fflush(stdout); exit(43); }
int main(int argc, char **argv) {
    if (argc < 2) return 3;
    FILE *in = fopen(argv[1], "r");
    static long long a[105];
    long long t, g;
    if (!in || fscanf(in, "%lld", &t) != 1) return 3;
    printf("%lld\n", t);
    for (g = 0; g < t; g++) {
        int n, i;
        long long left = 0;
        char c[16];
        if (fscanf(in, "%d", &n) != 1 || n < 1 || n > 100) return 3;
        printf("%d", n);
        for (i = 0; i < n; i++) {
            if (fscanf(in, "%lld", &a[i]) != 1) return 3;
            left += a[i];
            printf(" %lld", a[i]);
        }
        printf("\n");
        fflush(stdout);
        if (scanf("%15s", c) != 1) wrong();
        int theirs = strcmp(c, "first") == 0;
        if (!theirs && strcmp(c, "second") != 0) wrong();
        while (left > 0) {
            long long p, x;
            if (theirs) {
                if (scanf("%lld %lld", &p, &x) != 2 || p < 1 || p > n || x < 0 || x >= a[p - 1]) wrong();
                i = (int)p - 1;
            } else {
                long long s = 0;
                for (i = 0; i < n; i++) s ^= a[i];
                for (i = 0; i < n && (a[i] ^ s) >= a[i]; i++) {}
                if (i == n) {
                    int big = 0;
                    for (i = 1; i < n; i++) if (a[i] > a[big]) big = i;
                    i = big;
                    x = 0;
                } else {
                    x = a[i] ^ s;
                }
                printf("%d %lld\n", i + 1, x);
                fflush(stdout);
            }
            left -= a[i] - x;
            a[i] = x;
            moves++;
            if (left == 0 && !theirs) wrong();
            theirs = !theirs;
        }
    }
    if (scanf("%1s", (char[2]){0}) == 1) wrong();
    fprintf(stderr, "moves %ld\n", moves);
    return 42;
}
C

# The bare run: interactor and player connected by two pipes.
cat > "$work/bare.c" <<'C'
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
/* bare INTERACTOR INPUT PLAYER: prints the wall ms and the interactor's exit status. */
int main(int argc, char **argv) {
    int to_i[2], to_p[2];
    if (argc < 4 || pipe(to_i) || pipe(to_p)) return 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t p = fork();
    if (p == 0) {
        dup2(to_p[0], 0); dup2(to_i[1], 1);
        close(to_i[0]); close(to_i[1]); close(to_p[0]); close(to_p[1]);
        execl(argv[3], argv[3], (char *)0);
        _exit(127);
    }
    pid_t i = fork();
    if (i == 0) {
        dup2(to_i[0], 0); dup2(to_p[1], 1);
        close(to_i[0]); close(to_i[1]); close(to_p[0]); close(to_p[1]);
        execl(argv[1], argv[1], argv[2], argv[2], "/tmp", (char *)0);
        _exit(127);
    }
    close(to_i[0]); close(to_i[1]); close(to_p[0]); close(to_p[1]);
    int si = 0, sp = 0;
    waitpid(i, &si, 0);
    waitpid(p, &sp, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("%.3f %d\n", ms, WIFEXITED(si) ? WEXITSTATUS(si) : -1);
    return 0;
}
C

# (a)'s bare ping-pong.
cat > "$work/ping.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
/* Two processes alternate `i x` lines over two pipes, flushing each:
   the least any interactive judge can cost per move. */
int main(int argc, char **argv) {
    long moves = atol(argv[1]);
    int a[2], b[2];
    if (pipe(a) || pipe(b)) return 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        close(a[1]); close(b[0]);
        FILE *in = fdopen(a[0], "r"), *out = fdopen(b[1], "w");
        int i; long x;
        while (fscanf(in, "%d %ld", &i, &x) == 2) { fprintf(out, "%d %ld\n", i, x); fflush(out); }
        return 0;
    }
    close(a[0]); close(b[1]);
    FILE *out = fdopen(a[1], "w"), *in = fdopen(b[0], "r");
    int i; long x;
    for (long m = 0; m < moves; m += 2) {
        fprintf(out, "%d %ld\n", 1, m); fflush(out);
        if (fscanf(in, "%d %ld", &i, &x) != 2) return 1;
    }
    fclose(out);
    waitpid(pid, NULL, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.3f\n", s * 1000);
    return 0;
}
C
gcc -O2 -o "$work/ping" "$work/ping.c"
gcc -O2 -o "$work/bare" "$work/bare.c"
gcc -O2 -o "$work/interactor" "$work/problems/bench-program/interactor.c"
gcc -O2 -o "$work/player" "$player_src"

# One judged run of grundy: "test-wall-ms cpu-ms moves verdict command-ms".
judged() {
    local t0 t1
    t0=$(date +%s%N)
    "$grundy" judge "$1" "$player_src" --problems "$work/problems" --cache "$work/cache" \
        --json > "$work/judge.json" || true
    t1=$(date +%s%N)
    python3 - "$work/judge.json" "$(( (t1 - t0) / 1000 ))" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["results"][0]["tests"][0]
print(t["wall_ms"], t["time_ms"], t.get("moves") or 0, t["verdict"], int(sys.argv[2]) / 1000)
PY
}

# Once each to compile and cache, then the measured runs.
judged bench-play > /dev/null
judged bench-program > /dev/null
: > "$work/builtin.txt"; : > "$work/program.txt"; : > "$work/bare.txt"; : > "$work/ping.txt"
for _ in $(seq "$reps"); do
    judged bench-play >> "$work/builtin.txt"
    judged bench-program >> "$work/program.txt"
    "$work/bare" "$work/interactor" "$input" "$work/player" 2> "$work/bare-moves.txt" >> "$work/bare.txt"
done
moves=$(awk 'NR==1{print $3}' "$work/builtin.txt")
for _ in $(seq "$reps"); do "$work/ping" "$moves" >> "$work/ping.txt"; done
bare_moves=$(awk '/moves/{print $2}' "$work/bare-moves.txt")

python3 - "$work" "$games" "$piles" "$reps" "$bare_moves" <<'PY'
import sys
work, games, piles, reps, bare_moves = sys.argv[1:]
bare_moves = int(bare_moves)
rows = lambda f: [l.split() for l in open(f"{work}/{f}") if l.strip()]
def best(f):
    r = rows(f)
    return min(r, key=lambda x: float(x[0]))
b, p = best("builtin.txt"), best("program.txt")
bare = best("bare.txt")
ping = min(float(x[0]) for x in rows("ping.txt"))
bw, bcpu, bmoves, bverdict, bcmd = float(b[0]), float(b[1]), int(b[2]), b[3], float(b[4])
pw, pcpu, pverdict, pcmd = float(p[0]), float(p[1]), p[3], float(p[4])
barew, bare_status = float(bare[0]), bare[1]
print(f"nim-play, {games} games of {piles} piles, best of {reps} runs each")
print("(a) moves per second through the pipe pair")
print(f"  grundy, built-in interactor: {bmoves} moves in {bw:8.1f} ms  {bmoves / bw * 1000:10.0f} moves/s  (verdict {bverdict})")
print(f"  bare C ping-pong:            {bmoves} moves in {ping:8.1f} ms  {bmoves / ping * 1000:10.0f} moves/s")
print(f"  ratio grundy / bare: {bw / ping:.2f}x")
print("(b) the same games: grundy's built-in interactor against a bare C interactor")
print(f"  grundy, built-in interactor: {bw:8.1f} ms wall of the run ({bcpu:.1f} ms CPU of the player; whole command {bcmd:.0f} ms), {bmoves} moves")
print(f"  bare C interactor + player:  {barew:8.1f} ms wall, {bare_moves} moves (interactor exit {bare_status})")
print(f"  ratio grundy / bare: {bw / barew:.2f}x")
print("(c) the same games: the C interactor as grundy's program interactor (ICPC) against bare C")
print(f"  grundy, program interactor:  {pw:8.1f} ms wall of the run ({pcpu:.1f} ms CPU of the player; whole command {pcmd:.0f} ms), {bare_moves} moves, verdict {pverdict}")
print(f"  bare C interactor + player:  {barew:8.1f} ms wall")
print(f"  ratio grundy / bare: {pw / barew:.2f}x")
PY
