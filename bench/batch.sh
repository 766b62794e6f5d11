#!/usr/bin/env bash
# Batch grading throughput, this build side by side with earlier ones in the
# same run (same class, same machine, same load): submissions per second,
# wall and CPU seconds, and the judge's own share of the CPU: the CPU time
# of the whole grundy process tree (grundy, the compilers, the submissions)
# minus the CPU time the submissions' test runs used (the sum of the tests'
# time_ms), over the tree's total.
#
#   BASELINES="today=/path/to/old/grundy" JOBS="1 2" [DUPLICATES=1] [CLASSES="timeouts"] bash bench/batch.sh [STUDENTS] [TIMEOUT_STUDENTS]
#
# CLASSES: which classes to measure, of "cold warm timeouts" (default: all;
# warm needs cold, which fills the cache, and is measured with it).
# BASELINES: space-separated NAME=BINARY pairs measured before this build
# (build one from an earlier commit with `git worktree add`; none: this
# build only). JOBS: the --jobs values (default "1 2").
#
# Three classes:
# - "cold": STUDENTS (60) students x 3 problems from an empty compile cache
#   (every submission compiled and every reference answer computed);
#   with DUPLICATES=1, a quarter of the students hand in a copy of their
#   neighbour's files (byte for byte: judged once) and three students in
#   ten write C++ with bits/stdc++.h (the precompiled header), so that
#   what both save shows in the figures;
# - "warm": the same class again, the cache filled: the difference is what
#   compiling costs. The class is made from the templates of the batch tests
#   (tests/fixtures/batch): mostly right answers in C and Python (one
#   student in ten in C++ with bits/stdc++.h), and wrong answers,
#   time-outs, crashes, compile errors, memory and output hogs, on problems
#   with 3 tests and a 200 ms limit; every file distinct;
# - "1/3 time-outs": TIMEOUT_STUDENTS (6) students on the catalog's `nim`
#   (47 tests in 7 groups, 1 s), warm cache, a third of them timing out
#   (half by CPU, half sleeping: the wall-time limit of 3 s).
set -euo pipefail
cd "$(dirname "$0")/.."
students="${1:-60}"
timeouts="${2:-6}"
jobs_list="${JOBS:-1 2}"
classes="${CLASSES:-cold warm timeouts}"
want() { [[ " $classes " == *" $1 "* ]]; }
if want warm && ! want cold; then classes="$classes cold"; fi
cargo build --release -q
bins=()
for b in ${BASELINES:-}; do bins+=("$b"); done
bins+=("new=$(bash bench/release_dir.sh)/grundy")
fixtures="$PWD/tests/fixtures/batch"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$fixtures" "$work/class" "$students" "${DUPLICATES:-0}" <<'EOF'
import os, sys
fixtures, out, n, dups = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"

def pick(s, p):
    slot = (s * 7 + {"xor": 0, "sum": 7}.get(p, 13)) % 20
    ok = ("c", f"{p}_ok.c") if s % 4 != 1 else ("py", f"{p}_ok.py")
    other = {"parity": ("c", "parity_pe.c"), "xor": ("c", "xor_half.c")}.get(p, ("py", "sum_half.py"))
    return {9: ("c", "wa.c"), 10: ("c", "wa.c"), 11: ("c", "tle.c"), 12: ("py", "re.py"),
            13: ("c", "ce.c"), 14: ("c", "mle.c"), 15: ("c", "ole.c"), 16: other}.get(slot, ok)
for s in range(n):
    # With duplicates, every fourth student copies the one before.
    author = s - 1 if dups and s % 4 == 2 else s
    for p in ("parity", "sum", "xor"):
        ext, t = pick(author, p)
        d = os.path.join(out, f"student{s:03}")
        os.makedirs(d, exist_ok=True)
        src = open(os.path.join(fixtures, "templates", t)).read()
        cpp = (1, 3, 5) if dups else (3,)
        if author % 10 in cpp and t.endswith("_ok.c"):
            # Contest C++ as students write it: the whole library at once.
            ext, src = "cpp", "#include <bits/stdc++.h>\n" + src
        # Each file its own (but the copies): a real class compiles every
        # submission.
        mark = "#" if ext == "py" else "//"
        open(os.path.join(d, f"{p}.{ext}"), "w").write(f"{mark} student {author}\n{src}")
EOF

python3 - "$PWD/problems/nim/submissions/accepted" "$fixtures/templates" "$work/timeouts" "$timeouts" <<'EOF'
import os, sys
accepted, templates, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
for s in range(n):
    if s % 3 == 0:
        t = os.path.join(templates, "tle.c" if s % 6 == 0 else "sleep.c")
    else:
        t = os.path.join(accepted, "solution.cpp" if s % 3 == 1 else "solution.py")
    ext = os.path.splitext(t)[1]
    mark = "#" if ext == ".py" else "//"
    text = f"{mark} student {s}\n" + open(t).read()
    # The same files but the time-outs: a run that fills the cache.
    for folder in [out] + ([out + "-warm"] if s % 3 else []):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"student{s:03}{ext}"), "w") as f:
            f.write(text)
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
extra = sys.argv[7:]

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
                "--problems", problems] + extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
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

rows="$work/rows"
: >"$rows"
for entry in "${bins[@]}"; do
  name="${entry%%=*}" bin="${entry#*=}"
  for jobs in $jobs_list; do
    cache="$work/cache-$name-$jobs"
    rm -rf "$cache"
    for mode in cold warm; do
      want "$mode" || continue
      rm -rf "$work/out"
      echo "$name $jobs $mode $(measure "$bin" "$work/class" "$work/out" "$cache" "$jobs" "$fixtures/problems")" >>"$rows"
    done
    want timeouts || continue
    # The time-out class on a warm cache: what is measured is the runs.
    rm -rf "$work/out"
    measure "$bin" "$work/timeouts-warm" "$work/out" "$cache" "$jobs" "$PWD/problems" --problem nim >/dev/null
    rm -rf "$work/out"
    echo "$name $jobs timeouts $(measure "$bin" "$work/timeouts" "$work/out" "$cache" "$jobs" "$PWD/problems" --problem nim)" >>"$rows"
  done
done

python3 - "$rows" "$students" "$timeouts" "$(nproc)" "${DUPLICATES:-0}" <<'PY'
import sys
rows, students, timeouts, cpus = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data, cols = {}, []
for line in open(rows):
    name, jobs, mode, subs, runs, wall, cpu, tests, method = line.split()
    col = f"{name} -j{jobs}"
    if col not in cols:
        cols.append(col)
    data[(col, mode)] = (int(subs), int(runs), float(wall), float(cpu), float(tests), method)
first = next(m for m in ("warm", "cold", "timeouts") if (cols[0], m) in data)
s, r, *_, method = data[(cols[0], first)]
dups = " (a quarter of them copies, 3 in 10 students with bits/stdc++.h)" if sys.argv[5] == "1" else ""
whole = f"class: {students} students x 3 problems = {s} submissions{dups}; " if first != "timeouts" else ""
print(f"{whole}time-outs: {timeouts} students on nim, a third timing out; {cpus} CPUs (tree CPU from {method})")
print(f"{'':40}" + "".join(f"{c:>16}" for c in cols))
lines = {
    "submissions per second": lambda d: f"{d[0] / d[2]:.1f}",
    "wall seconds (CPU seconds)": lambda d: f"{d[2]:.1f} ({d[3]:.1f})",
    "judge's share of the CPU": lambda d: f"{100 * (d[3] - d[4]) / d[3]:.0f} %" if d[3] else "-",
    "test runs": lambda d: f"{d[1]}",
}
for mode, label in (("cold", "cold"), ("warm", "warm"), ("timeouts", "1/3 time-outs")):
    if (cols[0], mode) not in data:
        continue
    for what, f in lines.items():
        print(f"{label + ': ' + what:40}" + "".join(f"{f(data[(c, mode)]):>16}" for c in cols))
PY
echo "judge's share = (CPU of the grundy process tree - sum of the tests' time_ms) / CPU of the tree;"
echo "cold includes compiling every submission and computing the reference answers."
if [ "${DUPLICATES:-0}" = 1 ]; then
  echo "with DUPLICATES=1 a copy's record repeats its twin's time_ms and test runs: where copies are"
  echo "judged once, the judge's share is understated (it can go below 0) and test runs overstated."
fi
echo "load: $(uptime)"
