#!/usr/bin/env bash
# Reports byte for byte the same between two builds: grades a class made
# from the batch tests' templates (tests/fixtures/batch: AC, WA, PE, TLE,
# MLE, OLE, RE, CE in C and Python, plus the trouble a real download has)
# with an earlier build and with this one, then compares
#
# - grades.csv, junit.xml, report.html and every feedback/ file byte for byte;
# - report.json and journal.jsonl (its lines sorted: submissions finish in
#   any order) with what is measured masked: times, memory, the figures
#   quoted in TLE and MLE messages. Both builds use a cache folder of
#   their own at the same path (a crash's traceback quotes it).
#
# A third run resumes the earlier build's output with this build
# (`--resume` on a finished journal judges nothing): its reports are drawn
# from results read back from a journal and must be the same too.
#
#   BEFORE=/path/to/old/grundy bash bench/report_identity.sh [STUDENTS] [FEEDBACK]
#
# Build BEFORE from main (`cargo build --release && cp "$(bash bench/release_dir.sh)/grundy"
# /tmp/grundy-before` on an untouched checkout). STUDENTS (default 20)
# students cover every template of every problem; FEEDBACK is the
# --feedback level (default first-fail, the one that quotes diffs).
#
# A script rather than a test: it needs a second binary built from another
# commit. Exits 1 and names the first differing line when a report differs.
set -euo pipefail
cd "$(dirname "$0")/.."
students="${1:-20}"
feedback="${2:-first-fail}"
before="${BEFORE:?set BEFORE to the grundy binary to compare with}"
cargo build --release -q
after="$(bash bench/release_dir.sh)/grundy"
fixtures="$PWD/tests/fixtures/batch"
work="$(mktemp -d)"
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; else echo "work folder: $work"; fi

python3 - "$fixtures" "$work/class" "$students" <<'EOF'
import os, sys
fixtures, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])

# tests/batch_support::pick: a program that sleeps for the time-out, so
# the TLE names the same limit on a busy machine.
def pick(s, p):
    slot = (s * 7 + {"xor": 0, "sum": 7}.get(p, 13)) % 20
    ok = ("c", f"{p}_ok.c") if s % 4 != 1 else ("py", f"{p}_ok.py")
    other = {"parity": ("c", "parity_pe.c"), "xor": ("c", "xor_half.c")}.get(p, ("py", "sum_half.py"))
    return {9: ("c", "wa.c"), 10: ("c", "wa.c"), 11: ("c", "sleep.c"), 12: ("py", "re.py"),
            13: ("c", "ce.c"), 14: ("c", "mle.c"), 15: ("c", "ole.c"), 16: other}.get(slot, ok)

def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)

def template(name):
    with open(os.path.join(fixtures, "templates", name)) as f:
        return f.read()

for s in range(n):
    for p in ("parity", "sum", "xor"):
        ext, t = pick(s, p)
        write(os.path.join(out, f"student{s:03}", f"{p}.{ext}"), template(t))
write(os.path.join(out, "zoe/notes.txt"), "my answers are in my head\n")
write(os.path.join(out, "zoe/xor.c"), template("xor_ok.c"))
write(os.path.join(out, "yan/sum.c"), template("sum_ok.c"))
write(os.path.join(out, "yan/sum.py"), template("sum_ok.py"))
os.makedirs(os.path.join(out, "xavier"), exist_ok=True)
write(os.path.join(out.encode(), b"caf\xe9", b"xor.c"), template("xor_ok.c"))
EOF

grade() { # BINARY OUT CACHE [ARGS...]
    local bin="$1" out="$2" cache="$3"
    shift 3
    local code=0
    NO_COLOR=1 "$bin" grade "$work/class" --out "$out" --problems "$fixtures/problems" \
        --cache "$cache" --jobs 2 --feedback "$feedback" "$@" >"$out.log" 2>&1 || code=$?
    if [ "$code" -gt 1 ]; then
        echo "$bin exited with $code:" >&2
        cat "$out.log" >&2
        exit 3
    fi
}

# Each build its own cache (compiled programs are not shared between them)
# at the same path: a crash's traceback quotes it.
cache="$work/cache"
grade "$before" "$work/before" "$cache"
mv "$cache" "$work/cache-before"
grade "$after" "$work/after" "$cache"
cp -r "$work/before" "$work/resumed"
grade "$after" "$work/resumed" "$cache" --resume

# report.json or journal.jsonl without measurements, one JSON value a line.
mask() { # FILE CACHE
    python3 - "$1" "$2" <<'EOF'
import json, re, sys
path, cache = sys.argv[1], sys.argv[2]
figures = [
    (re.compile(r" \(CPU [0-9.]+ s\)"), " (CPU # s)"),
    (re.compile(r"peak memory [0-9.]+ [KMG]?i?B over"), "peak memory # over"),
    (re.compile(r"\(peak [0-9.]+ [KMG]?i?B,"), "(peak #,"),
]
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in ("time_ms", "wall_ms", "memory_kib")}
    if isinstance(v, list):
        return [clean(x) for x in v]
    if isinstance(v, str):
        v = v.replace(cache, "<cache>")
        for pattern, by in figures:
            v = pattern.sub(by, v)
    return v
with open(path) as f:
    text = f.read()
if path.endswith(".jsonl"):
    lines = sorted(json.dumps(clean(json.loads(l)), sort_keys=True) for l in text.splitlines() if l.strip())
else:
    lines = [json.dumps(clean(json.loads(text)), sort_keys=True, indent=1)]
print("\n".join(lines))
EOF
}

status=0
compare() { # NAME OTHER-OUT
    local name="$1" other="$2"
    for f in grades.csv junit.xml report.html; do
        if ! cmp -s "$work/before/$f" "$other/$f"; then
            echo "$name: $f differs:"
            diff "$work/before/$f" "$other/$f" | head -20 || true
            status=1
        fi
    done
    if ! diff -r "$work/before/feedback" "$other/feedback" >"$work/feedback.diff"; then
        echo "$name: feedback/ differs:"
        head -20 "$work/feedback.diff"
        status=1
    fi
    for f in report.json journal.jsonl; do
        if ! diff <(mask "$work/before/$f" "$cache") <(mask "$other/$f" "$cache") \
            >"$work/$f.diff"; then
            echo "$name: $f differs beyond measurements:"
            head -20 "$work/$f.diff"
            status=1
        fi
    done
}

compare "this build" "$work/after"
compare "this build resuming" "$work/resumed"

results=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(len(r), "submissions:", " ".join(sorted({x["verdict"] for x in r})))' "$work/before/report.json")
feedback_files=$(find "$work/before/feedback" -type f | wc -l)
if [ "$status" = 0 ]; then
    echo "same reports: $results; $feedback_files feedback files; grades.csv junit.xml report.html feedback/ byte for byte, report.json journal.jsonl beyond measurements"
fi
exit "$status"
