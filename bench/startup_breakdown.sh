#!/usr/bin/env bash
# Where the start-up of a judging goes: the CPU time of
# `grundy judge nim x.c --tests sample` (3 tests, warm cache) split into
# the judge's phases, beside the same split of the floor (a bare
# fork-exec-wait of the same program on the same inputs, bench/forkloop.c).
# bench/startup.sh gives the totals; this says which part of the
# difference each phase is, so that work on start-up goes where the time
# is.
#
#   [JUDGINGS=100] [FREQ=4000] [SANDBOX=auto|off] [KEEP=folder] bash bench/startup_breakdown.sh
#
# KEEP: the samples are left in that folder, for a closer look at one
# phase: python3 bench/startup_phases.py JUDGINGS FOLDER "phase name".
#
# Needs `perf` (Debian: linux-perf) allowed to sample this user's
# processes with call stacks (kernel.perf_event_paranoid <= 1, or root).
# Samples are taken with call stacks (DWARF), classified by the frames
# they pass through, and scaled to the CPU time `perf stat` measures of
# the same commands without sampling, so the figures are ms of CPU per
# judging; the sampling itself is not in them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
judgings=${JUDGINGS:-100}
freq=${FREQ:-4000}
sandbox=${SANDBOX:-auto}
command -v perf >/dev/null || { echo "needs perf (Debian: apt-get install linux-perf)" >&2; exit 1; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
if [ -n "${KEEP:-}" ]; then
  mkdir -p "$KEEP"
  work=$(cd "$KEEP" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
release=$(bash "$root/bench/release_dir.sh")
# A copy, as installed (see bench/startup.sh: a freshly linked file costs
# more page faults to map).
install -m 755 "$release/grundy" "$work/grundy"

cp "$root/bench/nim_xor.c" "$work/x.c"
gcc -O2 -o "$work/x" "$work/x.c"
gcc -O2 -o "$work/forkloop" "$root/bench/forkloop.c"
"$work/grundy" --problems "$root/problems" --cache "$work/cache" gen nim --out "$work/tests" >/dev/null
samples=("$work"/tests/sample-*.in)
[ "${#samples[@]}" -eq 3 ] || { echo "expected 3 samples of nim, found ${#samples[@]}" >&2; exit 1; }
judge=("$work/grundy" --problems "$root/problems" --cache "$work/cache" --sandbox "$sandbox"
  judge nim "$work/x.c" --tests sample)
"${judge[@]}" >/dev/null # warm: x.c compiled, the answers computed

# Each command started `judgings` times by a small driver (perf follows
# its children), not by a shell, whose own work would differ between them.
cat > "$work/repeat.c" <<'C'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
    for (int i = atoi(argv[1]); i > 0; i--) {
        pid_t pid = fork();
        if (pid == 0) {
            execv(argv[2], argv + 2);
            _exit(127);
        }
        int status;
        if (waitpid(pid, &status, 0) != pid || status != 0) return 1;
    }
    return 0;
}
C
gcc -O2 -o "$work/repeat" "$work/repeat.c"
measure() { # NAME COMMAND...: its CPU without sampling (for scale), then its samples
  local k=$1
  shift
  perf stat -x, -e task-clock -o "$work/$k.stat" -- "$@" >/dev/null
  perf record -q -F "$freq" -e cpu-clock --call-graph dwarf,16384 -o "$work/$k.data" \
    -- "$@" >/dev/null 2>&1
  perf script -i "$work/$k.data" -F comm,ip,sym 2>/dev/null > "$work/$k.txt"
}
measure judge "$work/repeat" "$judgings" "${judge[@]}"
measure floor "$work/repeat" "$judgings" "$work/forkloop" "$work/x" "$work/out" "${samples[@]}"

python3 "$root/bench/startup_phases.py" "$judgings" "$work"
