#!/usr/bin/env bash
# Batch grading throughput: submissions per second at --jobs 1 and --jobs 2
# on the same generated class, side by side, and the judge's own share of
# the CPU: the CPU time of the whole grundy process tree (grundy, the
# compilers, the submissions) minus the CPU time the submissions' test runs
# used (the sum of the tests' time_ms), over the tree's total.
#
#   bash bench/batch.sh [STUDENTS]      (default 60 students × 3 problems)
#
# "cold" runs start from an empty compile cache (every submission compiled
# and every reference answer computed), "warm" runs find it filled: the
# difference is what compiling costs. The class is made from the templates
# of the batch tests (tests/fixtures/batch): mostly right answers in C and
# Python, and wrong answers, time-outs, crashes, compile errors, memory and
# output hogs, on problems with 3 tests and a 200 ms limit.
set -euo pipefail
cd "$(dirname "$0")/.."
students="${1:-60}"
cargo build --release -q
bin="$PWD/target/release/grundy"
fixtures="$PWD/tests/fixtures/batch"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$fixtures" "$work/class" "$students" <<'EOF'
import os, sys
fixtures, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def pick(s, p):
    slot = (s * 7 + {"xor": 0, "sum": 7}.get(p, 13)) % 20
    ok = ("c", f"{p}_ok.c") if s % 4 != 1 else ("py", f"{p}_ok.py")
    other = {"parity": ("c", "parity_pe.c"), "xor": ("c", "xor_half.c")}.get(p, ("py", "sum_half.py"))
    return {9: ("c", "wa.c"), 10: ("c", "wa.c"), 11: ("c", "tle.c"), 12: ("py", "re.py"),
            13: ("c", "ce.c"), 14: ("c", "mle.c"), 15: ("c", "ole.c"), 16: other}.get(slot, ok)
for s in range(n):
    for p in ("parity", "sum", "xor"):
        ext, t = pick(s, p)
        d = os.path.join(out, f"student{s:03}")
        os.makedirs(d, exist_ok=True)
        src = open(os.path.join(fixtures, "templates", t)).read()
        # Each file its own: a real class compiles every submission.
        mark = "#" if ext == "py" else "//"
        open(os.path.join(d, f"{p}.{ext}"), "w").write(f"{mark} student {s}\n{src}")
EOF

# One measured run: prints "subs runs wall cpu tests_cpu method" for a
# grade run. The CPU of the whole process tree is read from a cgroup made
# for the run (cgroup v1 cpuacct counts every process in it and below it,
# including the runs that the sandbox starts in groups of their own and
# processes nobody waited for); without one, from getrusage of the
# children, which misses what the sandbox's cgroups account for.
measure() {
  python3 - "$@" <<'PY'
import json, os, resource, subprocess, sys, time
bin, cls, out, cache, jobs, problems = sys.argv[1:7]

def cpuacct_group():
    try:
        mountinfo = open("/proc/self/mountinfo").read().splitlines()
        own = open("/proc/self/cgroup").read().splitlines()
    except OSError:
        return None
    mount = None
    for line in mountinfo:
        left, _, right = line.partition(" - ")
        r = right.split()
        if len(r) >= 3 and r[0] == "cgroup" and "cpuacct" in r[2].split(","):
            mount = left.split()[4]
            break
    path = next((l.split(":", 2)[2] for l in own
                 if len(l.split(":", 2)) == 3 and "cpuacct" in l.split(":", 2)[1].split(",")), None)
    if mount is None or path is None:
        return None
    group = os.path.join(mount, path.lstrip("/"), f"batch-bench-{os.getpid()}")
    try:
        os.mkdir(group)
    except OSError:
        return None
    return group

def remove(group):
    for root, dirs, _ in os.walk(group, topdown=False):
        for d in dirs:
            try:
                os.rmdir(os.path.join(root, d))
            except OSError:
                pass
    try:
        os.rmdir(group)
    except OSError:
        pass

group = cpuacct_group()
def join():
    with open(os.path.join(group, "cgroup.procs"), "w") as f:
        f.write(str(os.getpid()))
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
subprocess.run([bin, "grade", cls, "--out", out, "--jobs", jobs, "--cache", cache,
                "--problems", problems], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
               preexec_fn=join if group else None)
wall = time.monotonic() - t0
if group:
    cpu = int(open(os.path.join(group, "cpuacct.usage")).read()) / 1e9
    method = "cgroup"
    remove(group)
else:
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    method = "rusage"
results = json.load(open(out + "/report.json"))["results"]
tests = sum(t["time_ms"] for r in results for t in r["tests"]) / 1000
runs = sum(len(r["tests"]) for r in results)
print(len(results), runs, f"{wall:.3f}", f"{cpu:.3f}", f"{tests:.3f}", method)
PY
}

declare -A row
for mode in cold warm; do
  for jobs in 1 2; do
    cache="$work/cache-$jobs"
    [ "$mode" = cold ] && rm -rf "$cache"
    rm -rf "$work/out"
    row[$mode-$jobs]="$(measure "$bin" "$work/class" "$work/out" "$cache" "$jobs" "$fixtures/problems")"
  done
done

read -r subs runs _ _ _ method <<<"${row[warm-1]}"
echo "class: $students students × 3 problems = $subs submissions, $runs test runs ($(nproc) CPUs; tree CPU from $method)"
printf '%-40s %12s %12s\n' "" "--jobs 1" "--jobs 2"
for mode in cold warm; do
  line=("$mode cache: submissions per second")
  share=("$mode cache: judge's share of the CPU")
  secs=("$mode cache: wall seconds (CPU seconds)")
  for jobs in 1 2; do
    read -r s _ wall cpu tests _ <<<"${row[$mode-$jobs]}"
    line+=("$(python3 -c "print(f'{$s / $wall:.1f}')")")
    share+=("$(python3 -c "print(f'{100 * ($cpu - $tests) / $cpu:.0f} %')")")
    secs+=("$(python3 -c "print(f'{$wall:.1f} ({$cpu:.1f})')")")
  done
  printf '%-40s %12s %12s\n' "${line[@]}"
  printf '%-40s %12s %12s\n' "${secs[@]}"
  printf '%-40s %12s %12s\n' "${share[@]}"
done
echo "judge's share = (CPU of the grundy process tree - sum of the tests' time_ms) / CPU of the tree;"
echo "cold includes compiling every submission and computing the reference answers."
