#!/bin/sh
# `grundy verify` against problemtools' `verifyproblem` on the same
# packages, side by side in one run: the project's own problems exported as
# ICPC packages, and a large package written here (88 tests, no time limit,
# as SWERC's `jewelsbuilding`: the limit is derived from the accepted
# programs). One line per package: wall-clock seconds and the result of
# each tool.
#
#   bench/verify_vs_problemtools.sh [GRUNDY] [PROBLEM...]   (from the repository root)
#
# Default problems: nim wythoff staircase-nim. verifyproblem runs with the
# package's `.timelimit` (`-t`) where it has one and Java compiled for this
# machine's JDK; both tools run the packages' Python 3 with PyPy (`pypy3`,
# problemtools' own setting; grundy's for a package where it is installed).
# Needs problemtools and pypy3 (`bash .ci/setup.sh --tests`).
set -eu
grundy=${1:-$(bash "$(dirname "$0")/release_dir.sh")/grundy}
[ $# -gt 0 ] && shift
problems=${*:-nim wythoff staircase-nim}
command -v verifyproblem >/dev/null || {
    echo "verifyproblem is not installed: bash .ci/setup.sh --tests" >&2
    exit 2
}
command -v pypy3 >/dev/null || {
    echo "pypy3 is not installed: bash .ci/setup.sh" >&2
    exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/config/problemtools" "$work/pkgs"
cat >"$work/config/problemtools/languages.yaml" <<'EOF'
java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
EOF

for p in $problems; do
    # The format's short names are `[a-z0-9]+`: verifyproblem refuses a
    # folder named `staircase-nim` ("Invalid shortname").
    "$grundy" export "$p" --to "$work/pkgs/$(echo "$p" | tr -d -)" >/dev/null 2>&1
done

# The large package: sum of n numbers, 88 tests of up to 200000 numbers,
# no time limit; accepted in C and Python, a quadratic C program that must
# time out, and an input validator in Python.
big=$work/pkgs/bigsum
mkdir -p "$big/data/sample" "$big/data/secret" "$big/submissions/accepted" \
    "$big/submissions/time_limit_exceeded" "$big/input_validators/check"
printf 'name: Big sum\nsource: grundy bench\nlicense: cc0\nrights_owner: grundy\n' >"$big/problem.yaml"
mkdir -p "$big/problem_statement"
printf '\\problemname{Big sum}\nAdd $n$ numbers.\n\\section*{Input}\n$n$, then $n$ numbers.\n\\section*{Output}\nTheir sum.\n' \
    >"$big/problem_statement/problem.en.tex"
python3 - "$big" <<'EOF'
import random, sys
big = sys.argv[1]
rng = random.Random(7)
def write(path, nums):
    with open(path + ".in", "w") as f:
        f.write(f"{len(nums)}\n{' '.join(map(str, nums))}\n")
    with open(path + ".ans", "w") as f:
        f.write(f"{sum(nums)}\n")
write(f"{big}/data/sample/1", [1, 2, 3])
for i in range(1, 89):
    n = 200000 if i % 4 == 0 else rng.randint(1, 20000)
    write(f"{big}/data/secret/{i:02}", [rng.randint(0, 10**6) for _ in range(n)])
EOF
cat >"$big/submissions/accepted/sum.c" <<'EOF'
#include <stdio.h>
int main(void) { long n, x, s = 0; scanf("%ld", &n); while (n-- > 0 && scanf("%ld", &x) == 1) s += x; printf("%ld\n", s); return 0; }
EOF
cat >"$big/submissions/accepted/sum.py" <<'EOF'
import sys
data = sys.stdin.read().split()
print(sum(map(int, data[1:])))
EOF
cat >"$big/submissions/time_limit_exceeded/quadratic.c" <<'EOF'
#include <stdio.h>
static long a[200000];
int main(void) {
    long n, s = 0; scanf("%ld", &n);
    for (long i = 0; i < n; i++) scanf("%ld", &a[i]);
    for (long i = 0; i < n; i++) for (long j = 0; j <= i; j++) if (j == i) s += a[i];
    printf("%ld\n", s); return 0;
}
EOF
cat >"$big/input_validators/check/check.py" <<'EOF'
import sys
data = sys.stdin.read().split()
n = int(data[0])
sys.exit(42 if len(data) == n + 1 and all(0 <= int(x) <= 10**6 for x in data[1:]) else 43)
EOF

# Seconds since START (nanoseconds), one decimal.
secs() {
    ms=$((($(date +%s%N) - $1) / 1000000))
    echo "$((ms / 1000)).$((ms % 1000 / 100))"
}
cache=$work/cache
printf '%-14s %8s  %-32s %8s  %s\n' package grundy_s "grundy verify" pt_s "verifyproblem"
for pkg in "$work"/pkgs/*/; do
    pkg=${pkg%/}
    name=$(basename "$pkg")
    start=$(date +%s%N)
    if "$grundy" verify "$pkg" --cache "$cache" >"$work/g.out" 2>"$work/g.err"; then
        g="ok"
    else
        g="FAILED: $(grep -m1 -E 'BAD|WA |FAILED' "$work/g.out" | cut -c1-24)"
    fi
    g_s=$(secs "$start")
    t=""
    [ -f "$pkg/.timelimit" ] && t="-t $(cat "$pkg/.timelimit")"
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    XDG_CONFIG_HOME=$work/config verifyproblem $t "$pkg" >"$work/p.out" 2>&1 || true
    p_s=$(secs "$start")
    p=$(grep -m1 "tested:" "$work/p.out" | sed 's/.*tested: //' || true)
    printf '%-14s %8s  %-32s %8s  %s\n' "$name" "$g_s" "$g" "$p_s" "${p:-no summary}"
done
