#!/usr/bin/env bash
# What a judging costs beyond running the program, side by side in one run:
#
#   start-up  `grundy judge nim x.c --tests sample` (3 tests, warm cache)
#             minus a bare fork-exec-wait of the same compiled program on
#             the same 3 inputs (bench/forkloop.c): the judge's own start,
#             loading the problem, preparing, reporting.  Target: ≤ 2 ms.
#   whole     `grundy judge nim x.c` (all its tests, a correct C program, warm
#             cache) over a bash loop running the program and `cmp` on each
#             of the same tests.  Target: ≤ 0.7.
#   split     the start-up's CPU in two: what each test adds over its bare
#             run (whole less start-up, less the floor's same difference on
#             all the tests, per test), and what is paid once per judging.
#
# Each figure is the median of ROUNDS interleaved rounds (default 21), in
# an order shuffled each round, so that other load on the machine falls
# on every command alike; wall time,
# and CPU time (user + system of the command and its children), which
# other load lengthens less.
#
#   [BASELINE=path/to/grundy] [ROUNDS=21] [SANDBOX=auto|off] bash bench/startup.sh
#
# BASELINE: an earlier build measured in the same rounds (build one from an
# earlier commit in a `git worktree add` folder). Also printed for each
# binary: its size and the relocations the loader applies at every start.
# Other load on the machine lengthens every figure: measure on a quiet
# machine (or under `nice -n -10`).
#
# Every command works under TMPDIR (the judge's working folder, the
# floor's output files). On an ext4 /tmp that other programs fill and empty,
# creating and removing the judge's run folders costs milliseconds of inode
# search and discards that a tmpfs does not: `TMPDIR=/dev/shm/x` measures the
# judge without them (the floor writes there too).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-21}
sandbox=${SANDBOX:-auto}
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

release=$(bash "$root/bench/release_dir.sh")
# Each binary is measured as a copy, as installed: a file just written by
# the linker sits in the page cache in small pieces, and every start then
# takes more page faults to map it (0.2-0.3 ms per judging here) than a copy
# written in one piece does, or the same file read again from disk. Without
# the copy a fresh build would look slower than an older binary by that much.
install -m 755 "$release/grundy" "$work/grundy-this"
bins=("this=$work/grundy-this")
if [ -n "${BASELINE:-}" ]; then
  install -m 755 "$BASELINE" "$work/grundy-baseline"
  bins+=("baseline=$work/grundy-baseline")
fi

cp "$root/bench/nim_xor.c" "$work/x.c"
gcc -O2 -o "$work/x" "$work/x.c"
gcc -O2 -o "$work/forkloop" "$root/bench/forkloop.c"
"$release/grundy" --problems "$root/problems" --cache "$work/cache-gen" \
  gen nim --out "$work/tests" >/dev/null
all_in=("$work"/tests/*.in)
sample_in=("$work"/tests/sample-*.in)
[ "${#all_in[@]}" -gt 3 ] || { echo "expected nim's tests, found ${#all_in[@]}" >&2; exit 1; }
export NIM_TESTS=${#all_in[@]}
[ "${#sample_in[@]}" -eq 3 ] || { echo "expected 3 samples of nim, found ${#sample_in[@]}" >&2; exit 1; }

# One judge per binary, each with its own cache, warmed (x.c compiled, the
# reference answers computed) before measuring.
judge() { # NAME BINARY ARGS...
  local name=$1 bin=$2
  shift 2
  "$bin" --problems "$root/problems" --cache "$work/cache-$name" --sandbox "$sandbox" \
    judge nim "$work/x.c" "$@" >/dev/null
}
for b in "${bins[@]}"; do judge "${b%%=*}" "${b#*=}"; done

for b in "${bins[@]}"; do
  bin=${b#*=}
  printf '%-10s %6.1f MB, %6d relocations   %s\n' "${b%%=*}:" \
    "$(awk -v s="$(stat -c %s "$bin")" 'BEGIN { print s / 1e6 }')" \
    "$(readelf -rW "$bin" | grep -cE " R_[A-Z0-9_]+" || true)" "$bin"
done

# The shell loop, as a script bash runs: each test's run, then cmp.
printf '%s\n' "${all_in[@]}" > "$work/inputs"
cat > "$work/loop.sh" <<SH
while read -r f; do
  "$work/x" < "\$f" > "$work/out"
  cmp -s "$work/out" "\${f%.in}.ans" || echo "mismatch on \$f" >&2
done < "$work/inputs"
SH

# Each command is started alone from one driver, in interleaved rounds:
# wall time from its clock, CPU time (user + system, its children
# included) from the driver's rusage of children.
python3 - "$rounds" "$sandbox" "$root" "$work" "${bins[@]}" <<'PY'
import os, random, resource, statistics, subprocess, sys, time

rounds, sandbox, root, work = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
bins = [b.split("=", 1) for b in sys.argv[5:]]
samples = sorted(f"{work}/tests/{f}" for f in os.listdir(f"{work}/tests")
                 if f.startswith("sample-") and f.endswith(".in"))

def measure(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{argv[0]} exited {done.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000

def judge(name, binary, *extra):
    return [binary, "--problems", f"{root}/problems", "--cache", f"{work}/cache-{name}",
            "--sandbox", sandbox, "judge", "nim", f"{work}/x.c", *extra]

with open(f"{work}/inputs") as f:  # every test, as the bash loop runs them
    every = f.read().splitlines()
commands = {
    "floor": [f"{work}/forkloop", f"{work}/x", f"{work}/out", *samples],
    "floor whole": [f"{work}/forkloop", f"{work}/x", f"{work}/out", *every],
    "loop": ["bash", f"{work}/loop.sh"],
}
for name, binary in bins:
    commands[f"{name} start"] = judge(name, binary, "--tests", "sample")
    commands[f"{name} whole"] = judge(name, binary)
got = {k: [] for k in commands}
# The order is shuffled every round (the same shuffles every time): a
# command's cost depends on the one run before it (on this project's test
# machines the one right after the bash loop paid about 1 ms more CPU and
# 7 ms more wall), and with a fixed order, or one turned by a step each
# round, every command keeps the same predecessor.
names = list(commands)
rng = random.Random(1)
for _ in range(rounds):
    rng.shuffle(names)
    for k in names:
        got[k].append(measure(commands[k]))

def med(k):
    return (statistics.median(w for w, _ in got[k]), statistics.median(c for _, c in got[k]))

fw, fc = med("floor")
fww, fwc = med("floor whole")
lw, lc = med("loop")
print(f"median of {rounds} rounds, --sandbox {sandbox}; ms: wall, CPU (user + system)")
print(f"{'bare fork-exec-wait, 3 samples (a)':<46} {fw:8.2f} {fc:8.2f}")
n = os.environ["NIM_TESTS"]
print(f"{f'bash loop run + cmp, {n} tests (b)':<46} {lw:8.2f} {lc:8.2f}")
print(f"{f'bare fork-exec-wait, {n} tests':<46} {fww:8.2f} {fwc:8.2f}")
for name, _ in bins:
    sw, sc = med(f"{name} start")
    ww, wc = med(f"{name} whole")
    print(f"{name + ': judge nim x.c --tests sample':<46} {sw:8.2f} {sc:8.2f}"
          f"   start-up above (a): {sw - fw:.2f} wall, {sc - fc:.2f} CPU")
    print(f"{name + f': judge nim x.c ({n} tests)':<46} {ww:8.2f} {wc:8.2f}"
          f"   / (b): {ww / lw:.2f} wall, {wc / lc:.2f} CPU")
    # The start-up split in two by CPU: what each test adds over its bare
    # run (the whole judging less the 3-test one, less the same difference
    # of the floor, over the tests between), and what is left, paid once
    # per judging. Wall time is not split: the whole judging runs tests in
    # parallel.
    per_test = ((wc - sc) - (fwc - fc)) / (int(n) - 3)
    print(f"{'':<64}   CPU per test above its bare run: {per_test:.2f};"
          f" once per judging: {sc - fc - 3 * per_test:.2f}")
PY
