#!/usr/bin/env bash
# Moves per second through grundy's pipe pair (a judged nim-play run: the
# submission in the sandbox, the built-in interactor in the judge) against
# a bare two-process ping-pong in C exchanging as many move lines, in the
# same run on the same machine.
#
# Usage: bench/interactive.sh [GAMES] [PILES]    (defaults 100 100)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-100}
piles=${2:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
grundy="$here/target/release/grundy"

mkdir -p "$work/problems/bench-play"
cat > "$work/problems/bench-play/problem.yaml" <<YAML
id: bench-play
title: Bench
limits:
  time: 10s
interactor: nim-play
groups:
  - name: all
    tests:
      - generator: nim-play-games
        params: {games: $games, n: $piles, losing: 0.5}
YAML
player="$here/problems/nim-play/submissions/accepted/solution.c"
# Once to compile and cache, then the measured run.
"$grundy" judge bench-play "$player" --problems "$work/problems" --json > /dev/null || true
"$grundy" judge bench-play "$player" --problems "$work/problems" --json > "$work/judge.json"
read -r moves wall cpu verdict < <(python3 - "$work/judge.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["results"][0]["tests"][0]
print(t.get("moves", 0), t["wall_ms"], t["time_ms"], t["verdict"])
PY
)

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
bare_ms=$("$work/ping" "$moves")

python3 - "$moves" "$wall" "$cpu" "$bare_ms" "$verdict" "$games" "$piles" <<'PY'
import sys
moves, wall, cpu, bare, verdict, games, piles = sys.argv[1:]
moves, wall, cpu, bare = int(moves), float(wall), float(cpu), float(bare)
print(f"nim-play run: {games} games of {piles} piles, {moves} moves, verdict {verdict}")
print(f"  grundy (sandboxed run + interactor): {wall:8.1f} ms wall ({cpu:.1f} ms CPU of the player), {moves / wall * 1000:10.0f} moves/s")
print(f"  bare C ping-pong, same moves:        {bare:8.1f} ms wall,                         {moves / bare * 1000:10.0f} moves/s")
print(f"  ratio grundy / bare: {wall / bare:.2f}x (the grundy figure includes starting the sandboxed program)")
PY
