#!/usr/bin/env bash
# `grundy mutants` over the catalog: per problem, how many mutants of the
# reference were generated and what became of them (unviable: does not
# compile; timeout: out of time on a sample; equivalent: answers like the
# reference on every input compared; killed; survived), the mutation score
# killed / (killed + survived), and the wall time of the command. One
# problem at a time, so each time is the problem's own. The figures live
# here, not in the tests: they depend on the machine and its load.
#
#   JOBS=2 bash bench/mutants.sh [PROBLEM...]
#
# PROBLEM: catalog ids (default: every problem `grundy list` shows).
# JOBS: mutants judged at once (default 2). The compile cache is a fresh
# temporary folder, so every mutant is compiled in the time shown. Each
# survivor is listed under the table with its shrunk input; exit status 1
# when any mutant survived or could not be judged.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${JOBS:-2}"
cargo build --release -q
bin=target/release/grundy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ $# -gt 0 ]; then
    problems=("$@")
else
    mapfile -t problems < <("$bin" list | awk 'NR > 1 { print $1 }')
fi

for p in "${problems[@]}"; do
    start=$(date +%s.%N)
    status=0
    "$bin" mutants "$p" --json --jobs "$jobs" --cache "$work/cache" \
        > "$work/$p.json" 2> "$work/$p.err" || status=$?
    end=$(date +%s.%N)
    echo "$p $status $start $end" >> "$work/runs"
done

python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
cols = ["mutants", "unviable", "timeout", "equivalent", "killed", "survived"]
print(f"{'problem':17} {'count':>5} {'unviable':>8} {'timeout':>7} {'equiv':>5} "
      f"{'killed':>6} {'survived':>8} {'score':>7} {'seconds':>7}")
total = dict.fromkeys(cols + ["error", "not_run"], 0)
seconds = 0.0
bad, notes = False, []
for line in open(os.path.join(work, "runs")):
    p, status, start, end = line.split()
    wall = float(end) - float(start)
    seconds += wall
    try:
        o = json.loads(open(os.path.join(work, p + ".json")).read().splitlines()[0])
    except (IndexError, ValueError):
        err = open(os.path.join(work, p + ".err")).read().strip()
        print(f"{p:17} failed (exit {status}): {err}")
        bad = True
        continue
    c = o["counts"]
    for k in total:
        total[k] += c[k]
    score = "-" if o["score"] is None else f"{o['score']:.1f}%"
    print(f"{p:17} {c['mutants']:5} {c['unviable']:8} {c['timeout']:7} {c['equivalent']:5} "
          f"{c['killed']:6} {c['survived']:8} {score:>7} {wall:7.1f}")
    if c["survived"] or c["error"] or c["not_run"]:
        bad = True
    for m in o["mutants"]:
        if m["outcome"] in ("survived", "error"):
            what = (f"input {m.get('input', '')!r}, expected {m.get('expected', '')!r}, "
                    f"got {m.get('actual', '')!r}" if m["outcome"] == "survived"
                    else m.get("message", ""))
            notes.append(f"  {p} line {m['line']}: {m['description']} ({m['outcome']}): {what}")
judged = total["killed"] + total["survived"]
score = f"{100 * total['killed'] / judged:.1f}%" if judged else "-"
print(f"{'total':17} {total['mutants']:5} {total['unviable']:8} {total['timeout']:7} "
      f"{total['equivalent']:5} {total['killed']:6} {total['survived']:8} {score:>7} {seconds:7.1f}")
if total["error"] or total["not_run"]:
    print(f"({total['error']} mutants the judge failed on, {total['not_run']} not run)")
for n in notes:
    print(n)
sys.exit(1 if bad else 0)
PY
