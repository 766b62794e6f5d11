#!/usr/bin/env bash
# Judge overhead per test, side by side in one run:
#   grundy judge      — a trivial C program on N small tests, sandboxed and not
#   fork-exec-wait    — a bare C loop running the same binary on the same inputs
#   shell + cmp       — a bash loop running the binary and cmp on each output
#   BASELINE=PATH — also an earlier grundy binary, sandboxed, in the same rounds
# Usage: [BASELINE=path/to/grundy] bash bench/judge_overhead.sh [N]   (default 1000)
set -euo pipefail
n=${1:-1000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
grundy="$(bash "$(dirname "$0")/release_dir.sh")/grundy"

mkdir -p "$work/problems/echo" "$work/tests"
{
  echo "id: echo"
  echo "title: Echo"
  echo "groups:"
  echo "  - name: all"
  echo "    tests:"
  for i in $(seq 1 "$n"); do
    echo "      - {input: \"$i\\n\", answer: \"$i\\n\"}"
    printf '%s\n' "$i" > "$work/tests/$i.in"
    printf '%s\n' "$i" > "$work/tests/$i.ans"
  done
} > "$work/problems/echo/problem.yaml"
cat > "$work/echo.c" <<'C'
#include <stdio.h>
int main(void) { long x; if (scanf("%ld", &x) == 1) printf("%ld\n", x); return 0; }
C
gcc -O2 -o "$work/echo" "$work/echo.c"
gcc -O2 -o "$work/forkloop" "$root/bench/forkloop.c"

now() { date +%s.%N; }
per_test() { awk -v a="$1" -v b="$2" -v n="$n" 'BEGIN { printf "%.3f", (b - a) * 1000 / n }'; }

judge() {
  "$grundy" --problems "$work/problems" --cache "$work/cache" judge echo "$work/echo.c" "$@" >/dev/null
}
judge_off() { judge --sandbox off; }
baseline() {
  "$BASELINE" --problems "$work/problems" --cache "$work/cache-base" judge echo "$work/echo.c" "$@" >/dev/null
}
# Without the sandbox the two binaries do the same work per test, so this
# ratio is the judge's own code; the sandboxed ratio adds what the sandbox
# gained between them (a tmpfs per run, for one).
baseline_off() { baseline --sandbox off; }
judge # warm-up: compile once into the cache
judge_off
if [ -n "${BASELINE:-}" ]; then baseline; baseline_off; fi

inputs=()
for i in $(seq 1 "$n"); do inputs+=("$work/tests/$i.in"); done
shell_loop() {
  for i in $(seq 1 "$n"); do
    "$work/echo" < "$work/tests/$i.in" > "$work/out"
    cmp -s "$work/out" "$work/tests/$i.ans" || echo "mismatch on $i" >&2
  done
}
elapsed() { local a b; a=$(now); "$@"; b=$(now); per_test "$a" "$b"; }
min() { printf '%s\n' "$@" | sort -g | head -1; }

# Interleaved rounds; the minimum of each is the least disturbed by other load.
rounds=${ROUNDS:-5}
gs=(); os=(); fs=(); ss=(); bs=(); bos=()
for _ in $(seq 1 "$rounds"); do
  gs+=("$(elapsed judge)")
  if [ -n "${BASELINE:-}" ]; then bs+=("$(elapsed baseline)"); fi
  os+=("$(elapsed judge_off)")
  if [ -n "${BASELINE:-}" ]; then bos+=("$(elapsed baseline_off)"); fi
  fs+=("$(elapsed "$work/forkloop" "$work/echo" "$work/out" "${inputs[@]}")")
  ss+=("$(elapsed shell_loop)")
done
g=$(min "${gs[@]}"); o=$(min "${os[@]}"); f=$(min "${fs[@]}"); s=$(min "${ss[@]}")
printf '%-32s %10s\n' "per test, $n tests, best of $rounds" "ms"
printf '%-32s %10s\n' "grundy judge (sandbox)" "$g"
printf '%-32s %10s\n' "grundy judge --sandbox off" "$o"
printf '%-32s %10s\n' "bare fork-exec-wait (a)" "$f"
printf '%-32s %10s\n' "shell loop + cmp (b)" "$s"
if [ -n "${BASELINE:-}" ]; then
  b=$(min "${bs[@]}"); bo=$(min "${bos[@]}")
  printf '%-32s %10s\n' "baseline judge (sandbox)" "$b"
  printf '%-32s %10s\n' "baseline judge --sandbox off" "$bo"
  awk -v g="$g" -v b="$b" 'BEGIN { printf "this binary / baseline = %.2fx\n", g / b }'
  awk -v o="$o" -v b="$bo" 'BEGIN { printf "this binary / baseline, sandbox off = %.2fx\n", o / b }'
fi
awk -v g="$g" -v o="$o" -v f="$f" -v s="$s" 'BEGIN {
  printf "sandbox off / (a) = %.2fx   sandbox off / (b) = %.2fx\n", o / f, o / s
  printf "sandbox / (a) = %.2fx   sandbox / (b) = %.2fx   sandbox cost = %.3f ms per run\n", g / f, g / s, g - o
}'
