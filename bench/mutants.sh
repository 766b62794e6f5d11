#!/usr/bin/env bash
# `grundy mutants` over the catalog: per problem, the mutants of each
# accepted program (the reference and every accepted submission, in C,
# C++, Java, Python and Rust), logic and representation apart, and what
# became of them (unviable: does not compile; timeout: out of time on a
# sample; equivalent: answers like the reference on every input compared;
# killed; survived); the mutation score killed / (killed + survived) over
# the union of the problem's programs; and the wall time of the command.
# One problem at a time, niced, so each time is the problem's own. The
# figures live here, not in the tests: they depend on the machine and its
# load.
#
#   JOBS=2 bash bench/mutants.sh [PROBLEM...]
#
# PROBLEM: catalog ids (default: every problem `grundy list` shows).
# JOBS: mutants judged at once (default 2). The compile cache is a fresh
# temporary folder, so every mutant is compiled in the time shown (CACHE=
# a folder to keep one between runs). OUT= a folder keeps each problem's
# JSON (default: a temporary folder, removed). Under the table: every
# equivalent with its reason, and every survivor with its shrunk input;
# exit status 1 when any mutant survived or could not be judged.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${JOBS:-2}"
cargo build --release -q
bin=$(bash bench/release_dir.sh)/grundy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="${OUT:-$work/out}"
cache="${CACHE:-$work/cache}"
mkdir -p "$out"

if [ $# -gt 0 ]; then
    problems=("$@")
else
    mapfile -t problems < <("$bin" list | awk 'NR > 1 { print $1 }')
fi

: > "$work/runs"
for p in "${problems[@]}"; do
    start=$(date +%s.%N)
    status=0
    nice -n 10 "$bin" mutants "$p" --json --jobs "$jobs" --cache "$cache" \
        > "$out/$p.json" 2> "$out/$p.err" || status=$?
    end=$(date +%s.%N)
    echo "$p $status $start $end" >> "$work/runs"
done

python3 - "$work/runs" "$out" <<'PY'
import json, os, sys
runs, out = sys.argv[1], sys.argv[2]
keys = ["mutants", "killed", "equivalent", "survived", "unviable", "timeout"]
def cells(c):
    return " ".join(f"{c[k]:>4}" for k in keys)
head = " ".join(f"{k[:4]:>4}" for k in keys)
print(f"{'problem / program':34} {'logic: ' + head:>37}   {'representation: ' + head:>46}  {'score':>7} {'seconds':>7}")
total = dict.fromkeys(keys + ["error", "not_run"], 0)
seconds, bad, equivalents, notes = 0.0, False, [], []
for line in open(runs):
    p, status, start, end = line.split()
    wall = float(end) - float(start)
    seconds += wall
    try:
        o = json.loads(open(os.path.join(out, p + ".json")).read().splitlines()[0])
    except (IndexError, ValueError, OSError):
        err = open(os.path.join(out, p + ".err")).read().strip()
        print(f"{p:34} failed (exit {status}): {err}")
        bad = True
        continue
    c = o["counts"]
    for k in total:
        total[k] += c[k]
    score = "-" if o["score"] is None else f"{o['score']:.1f}%"
    print(f"{p:34} {'':>37}   {'':>46}  {score:>7} {wall:7.0f}")
    for prog in o["programs"]:
        name = f"  {os.path.basename(prog['file'])} ({prog['language']})"
        if prog["skipped"]:
            print(f"{name:34} not mutated: {prog['skipped']}")
            continue
        pscore = "-" if prog["score"] is None else f"{prog['score']:.1f}%"
        print(f"{name:34} {'logic: ' + cells(prog['logic']):>37}   "
              f"{'representation: ' + cells(prog['representation']):>46}  {pscore:>7}")
    if c["survived"] or c["error"] or c["not_run"]:
        bad = True
    for m in o["mutants"]:
        where = f"{p} {m['file']}:{m['line']} {m['kind']}"
        if m["outcome"] == "equivalent":
            equivalents.append(f"  {where}: {m['description']}\n      {m.get('reason', '')}")
        elif m["outcome"] in ("survived", "error"):
            what = (f"input {m.get('input', '')!r}, expected {m.get('expected', '')!r}, "
                    f"got {m.get('actual', '')!r}" if m["outcome"] == "survived"
                    else m.get("message", ""))
            notes.append(f"  {where} ({m['outcome']}): {m['description']}: {what}")
judged = total["killed"] + total["survived"]
score = f"{100 * total['killed'] / judged:.1f}%" if judged else "-"
print(f"{'total (union of every program)':34} mutants {total['mutants']}, killed {total['killed']}, "
      f"equivalent {total['equivalent']}, survived {total['survived']}, unviable {total['unviable']}, "
      f"timeout {total['timeout']}: {score} in {seconds:.0f} s")
if total["error"] or total["not_run"]:
    print(f"({total['error']} mutants the judge failed on, {total['not_run']} not run)")
if equivalents:
    print("\nequivalent, with the reason:")
    print("\n".join(equivalents))
if notes:
    print("\nsurvived or not judged:")
    print("\n".join(notes))
sys.exit(1 if bad else 0)
PY
