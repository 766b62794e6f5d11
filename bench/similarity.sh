#!/usr/bin/env bash
# Times `grundy similar` on a generated class of nim submissions (200 by
# default) and prints the pairs it reports. The class: independent short
# solutions assembled from the ways students write this problem (C, C++,
# Python; several loops, readers, accumulators and outputs; their own
# names), plus planted copies: 4 longer programs, each copied by 2
# students who renamed everything and changed the layout, and one partial
# copy. A good run reports the planted pairs and nothing else (independent
# students the generator gave the very same program are reported as copies,
# and counted apart).
#
# Then memory: the peak resident size of `grundy similar` on the class
# with one more student whose file is a long generated C program (of
# MEMORY_MIB, default "1 16" MiB), less the class alone, per MiB of that
# source. GRUNDY=path/to/grundy measures another build.
#
#   bash bench/similarity.sh [STUDENTS]
set -euo pipefail
cd "$(dirname "$0")/.."
students="${1:-200}"
if [ -z "${GRUNDY:-}" ]; then
  cargo build --release -q
fi
bin="${GRUNDY:-$(bash bench/release_dir.sh)/grundy}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT && echo "class in $work"

python3 - "$work/class" "$students" <<'PY'
import os, random, sys
out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out)
rnd = random.Random(7)
names = ["n", "cnt", "k", "m", "num", "size", "piles", "total", "q", "len"]
accs = ["x", "s", "acc", "res", "r", "nim", "xr", "ans", "g", "val"]
items = ["a", "v", "p", "t", "cur", "pile", "h", "y", "z", "w"]

def c_like(cpp):
    n_, x, a = rnd.choice(names), rnd.choice(accs), rnd.choice(items)
    i = rnd.choice(["i", "j", "idx", "it"])
    ty = rnd.choice(["int", "long long", "long"])
    fmt = {"int": "%d", "long long": "%lld", "long": "%ld"}[ty]
    if cpp and rnd.random() < 0.6:
        read_n = f"cin >> {n_};"
        read_a = f"cin >> {a};"
        head = "#include <bits/stdc++.h>\nusing namespace std;\n" if rnd.random() < .5 else "#include <iostream>\nusing namespace std;\n"
    else:
        read_n = f'scanf("%d", &{n_});'
        read_a = f'scanf("{fmt}", &{a});'
        head = "#include <cstdio>\n" if cpp else "#include <stdio.h>\n"
    acc = rnd.choice([f"{x} ^= {a};", f"{x} = {x} ^ {a};"])
    loop = rnd.choice([
        f"for (int {i} = 0; {i} < {n_}; {i}++) {{\n        {ty} {a};\n        {read_a}\n        {acc}\n    }}",
        f"while ({n_}--) {{\n        {ty} {a};\n        {read_a}\n        {acc}\n    }}",
        f"for (int {i} = 1; {i} <= {n_}; ++{i}) {{ {ty} {a}; {read_a} {acc} }}",
    ])
    if cpp and "cin" in read_n and rnd.random() < .7:
        outp = rnd.choice([f'cout << ({x} ? "Alice" : "Bob") << endl;',
                           f'if ({x} != 0) cout << "Alice\\n"; else cout << "Bob\\n";'])
    else:
        outp = rnd.choice([f'printf("%s\\n", {x} ? "Alice" : "Bob");',
                           f'if ({x}) puts("Alice"); else puts("Bob");',
                           f'puts({x} != 0 ? "Alice" : "Bob");'])
    body = f"    int {n_};\n    {read_n}\n    {ty} {x} = 0;\n    {loop}\n    {outp}\n    return 0;\n"
    if rnd.random() < .3:
        f = rnd.choice(["solve", "run", "go", "work"])
        return f"{head}\nvoid {f}() {{\n{body.replace('return 0;', 'return;')}}}\n\nint main() {{\n    {f}();\n    return 0;\n}}\n"
    return f"{head}\nint main() {{\n{body}}}\n"

def py():
    x, a, d = rnd.choice(accs), rnd.choice(items), rnd.choice(["data", "nums", "vals", "tokens", "arr"])
    read = rnd.choice([
        f"import sys\n{d} = list(map(int, sys.stdin.read().split()))\n",
        f"{d} = [int(t) for t in open(0).read().split()]\n",
    ])
    loop = rnd.choice([
        f"{x} = 0\nfor {a} in {d}[1:{d}[0] + 1]:\n    {x} ^= {a}\n",
        f"from functools import reduce\nfrom operator import xor\n{x} = reduce(xor, {d}[1:], 0)\n",
        f"{x} = 0\nfor i in range({d}[0]):\n    {x} = {x} ^ {d}[i + 1]\n",
    ])
    outp = rnd.choice([f'print("Alice" if {x} else "Bob")\n',
                       f'if {x} != 0:\n    print("Alice")\nelse:\n    print("Bob")\n'])
    src = read + loop + outp
    if rnd.random() < .3:
        src = "def main():\n" + "".join("    " + l + "\n" for l in src.splitlines()) + "\n\nmain()\n"
    return src

ORIGINALS = [
    ("c", """#include <stdio.h>
#include <ctype.h>

static long next_number(void) {
    int c = getchar();
    while (c != EOF && !isdigit(c)) c = getchar();
    if (c == EOF) return -1;
    long value = 0;
    while (c != EOF && isdigit(c)) { value = value * 10 + (c - '0'); c = getchar(); }
    return value;
}

static int winner(const long *piles, int count) {
    long x = 0;
    for (int i = 0; i < count; i++) x ^= piles[i];
    return x != 0;
}

int main(void) {
    long piles[128];
    long n = next_number();
    if (n < 0 || n > 100) return 1;
    for (long i = 0; i < n; i++) {
        long p = next_number();
        if (p < 0) return 1;
        piles[i] = p;
    }
    printf(winner(piles, (int)n) ? "Alice\\n" : "Bob\\n");
    return 0;
}
"""),
    ("py", """import sys


class Game:
    def __init__(self, piles):
        self.piles = list(piles)

    def grundy(self):
        value = 0
        for pile in self.piles:
            value ^= pile
        return value

    def first_player_wins(self):
        return self.grundy() != 0


def parse(text):
    numbers = [int(tok) for tok in text.split()]
    count = numbers[0]
    if count != len(numbers) - 1:
        raise ValueError("bad input")
    return numbers[1:]


if __name__ == "__main__":
    game = Game(parse(sys.stdin.read()))
    print("Alice" if game.first_player_wins() else "Bob")
"""),
    ("cpp", """#include <iostream>
#include <vector>
#include <numeric>
using namespace std;

struct Position {
    vector<long long> heaps;
    long long nimber() const {
        long long g = 0;
        for (long long h : heaps) g ^= h;
        return g;
    }
};

static Position readPosition(istream &in) {
    Position p;
    size_t n = 0;
    in >> n;
    p.heaps.resize(n);
    for (auto &h : p.heaps) in >> h;
    return p;
}

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    Position pos = readPosition(cin);
    if (pos.nimber() != 0) cout << "Alice" << '\\n';
    else cout << "Bob" << '\\n';
    return 0;
}
"""),
    ("c", """#include <stdio.h>
#include <stdlib.h>

typedef struct { int n; int *a; } Input;

static Input load(void) {
    Input in = {0, NULL};
    if (scanf("%d", &in.n) != 1 || in.n <= 0) exit(0);
    in.a = malloc(sizeof(int) * (size_t)in.n);
    if (!in.a) exit(1);
    for (int i = 0; i < in.n; i++)
        if (scanf("%d", &in.a[i]) != 1) exit(1);
    return in;
}

static int xor_all(const Input *in) {
    int r = 0;
    for (int i = 0; i < in->n; i++) r ^= in->a[i];
    return r;
}

int main(void) {
    Input in = load();
    int g = xor_all(&in);
    free(in.a);
    puts(g ? "Alice" : "Bob");
    return 0;
}
"""),
]

import re
def disguise(src, ext):
    # Rename every identifier that is not a keyword or library name, strip
    # comments, change the layout.
    keep = set("""include stdio h ctype stdlib iostream vector numeric using namespace std struct static long int
    void return if else for while const char unsigned size_t auto main printf puts scanf getchar EOF isdigit
    exit malloc free sizeof typedef NULL cin cout istream ios sync_with_stdio tie nullptr false true class
    def self import sys print in not and or raise ValueError list int len split read stdin __init__ __name__ __main__
    range resize long long""".split())
    mapping = {}
    def ren(m):
        w = m.group(0)
        if w in keep or w[0].isdigit():
            return w
        mapping.setdefault(w, f"q{len(mapping)}{rnd.choice('abcxyz')}")
        return mapping[w]
    # leave string literals alone
    parts = re.split(r'("(?:[^"\\\\]|\\\\.)*"|\'(?:[^\'\\\\]|\\\\.)*\')', src)
    out = "".join(p if i % 2 else re.sub(r"[A-Za-z_][A-Za-z_0-9]*", ren, p) for i, p in enumerate(parts))
    if ext != "py":
        out = re.sub(r"\n\s*\n", "\n", out)
        out = out.replace("{", " {\n").replace(";", ";\n")
        out = "// solution\n" + "\n".join(("  " if rnd.random() < .5 else "\t") + l.strip() for l in out.splitlines() if l.strip()) + "\n"
    else:
        out = "# my work\n" + out.replace("    ", "  ")
    return out

students = [f"s{i:03d}" for i in range(n)]
planted = []
k = 0
for o, (ext, src) in enumerate(ORIGINALS):
    trio = students[k:k + 3]
    k += 3
    with open(os.path.join(out, f"{trio[0]}.{ext}"), "w") as f:
        f.write(src)
    for s in trio[1:]:
        with open(os.path.join(out, f"{s}.{ext}"), "w") as f:
            f.write(disguise(src, ext))
    planted += [(trio[0], trio[1]), (trio[0], trio[2]), (trio[1], trio[2])]
# A partial copy: the reader and the helper of the first original, main
# its own.
part = students[k]; k += 1
reader = ORIGINALS[0][1].split("int main(void)")[0]
with open(os.path.join(out, f"{part}.c"), "w") as f:
    f.write(disguise(reader + """int main(void) {
    long left = next_number();
    unsigned long sum = 0;
    long kept[128];
    if (left > 100) left = 100;
    for (long j = 0; j < left; j++) kept[j] = next_number();
    puts(winner(kept, (int)left) ? "Alice" : "Bob");
    return 0;
}
""", "c"))
planted += [(s, part) for s in students[0:3]]
for s in students[k:]:
    kind = rnd.choice(["c", "cpp", "py", "py", "cpp"])
    src = {"c": lambda: c_like(False), "cpp": lambda: c_like(True), "py": py}[kind]()
    with open(os.path.join(out, f"{s}.{kind}"), "w") as f:
        f.write(src)
with open(os.path.join(out, "..", "planted.txt"), "w") as f:
    for a, b in planted:
        f.write(f"{a} {b}\n")
PY

echo "class: $students nim submissions ($(ls "$work/class" | sed 's/.*\.//' | sort | uniq -c | tr -s ' ' | tr '\n' ',' | sed 's/,$//')), $(wc -l < "$work/planted.txt") planted pairs"
start=$(date +%s.%N)
"$bin" similar "$work/class" --problem nim --out "$work/out" --json > "$work/report.json"
end=$(date +%s.%N)
python3 - "$work/report.json" "$work/planted.txt" "$start" "$end" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
planted = {tuple(sorted(l.split())) for l in open(sys.argv[2]) if l.strip()}
found = {tuple(sorted((p["a"]["student"], p["b"]["student"]))): p for p in r["pairs"]}
copied = set()
for c in r.get("copies", []):
    who = sorted(f["student"] for f in c["files"])
    copied |= {(a, b) for i, a in enumerate(who) for b in who[i + 1:]}
p = r["problems"][0]
print(f"time: {float(sys.argv[4]) - float(sys.argv[3]):.2f} s wall for {p['pairs_compared']} pairs "
      f"({p['common_fingerprints']} common fingerprints and {p['base_fingerprints']} of base code left out)")
print(f"reported: {len(found)} pairs and {len(r.get('copies', []))} groups of copies; "
      f"planted found: {len(planted & (set(found) | copied))} of {len(planted)}; "
      f"pairs reported but not planted: {len(set(found) - planted)}; "
      f"copies not planted (the same program from the generator): {len(copied - planted)} pairs of students")
for pair, q in sorted(found.items(), key=lambda kv: -kv[1]["score"]):
    mark = "planted" if pair in planted else "NOT PLANTED"
    print(f"  {q['score'] * 100:5.1f} %  {q['matched']:3d} fingerprints  {pair[0]} ~ {pair[1]}  {mark}")
for pair in sorted(planted & copied - set(found)):
    print(f"  copies     {pair[0]} ~ {pair[1]}  planted")
for pair in sorted(planted - set(found) - copied):
    print(f"  missed: {pair[0]} ~ {pair[1]}")
PY

# The margin: the closest independent pair, with every guard but base code
# and common idiom off.
"$bin" similar "$work/class" --problem nim --out "$work/out-all" --json --threshold 0 --min-matches 1 > "$work/all.json"
python3 - "$work/all.json" "$work/planted.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
planted = {tuple(sorted(l.split())) for l in open(sys.argv[2]) if l.strip()}
rest = [p for p in r["pairs"] if tuple(sorted((p["a"]["student"], p["b"]["student"]))) not in planted]
if rest:
    top = max(rest, key=lambda p: (p["matched"], p["score"]))
    print(f"closest independent pair: {top['matched']} fingerprints in common ({top['score'] * 100:.1f} %), "
          f"{top['a']['student']} ~ {top['b']['student']}; {len(rest)} independent pairs share any")
PY

# Memory per MiB of source: the class alone, then with one long file.
python3 - "$bin" "$work" "${MEMORY_MIB:-1 16}" <<'PY'
import os, resource, shutil, subprocess, sys
bin, work, sizes = sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3].split()]

def peak(cls):
    # The peak of the child just run: a fresh process per measure.
    code = ("import resource, subprocess, sys;"
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, bin, "similar", cls, "--problem", "nim",
                          "--out", os.path.join(work, "out-mem")], capture_output=True, text=True)
    return int(out.stdout.strip()) / 1024  # MiB

base = peak(os.path.join(work, "class"))
print(f"memory: {base:.0f} MiB peak for the class alone")
for mib in sizes:
    cls = os.path.join(work, f"class-{mib:g}")
    shutil.copytree(os.path.join(work, "class"), cls)
    with open(os.path.join(cls, "zz-long.c"), "w") as f:
        f.write("#include <stdio.h>\n")
        i, size = 0, 0
        # Just under the size asked: 1 MiB is then the largest compared.
        while size < mib * (1 << 20) - 300:
            line = (f"int f{i}(int a) {{ int b = a * {i % 97} + {i}; if (b > {i % 7}) return b - a; "
                    f"for (int j = 0; j < a; j++) b ^= j; return b; }}\n")
            f.write(line)
            size += len(line)
            i += 1
    p = peak(cls)
    print(f"memory: {p:.0f} MiB peak with a {mib:g} MiB source added: "
          f"{(p - base) / mib:.1f} MiB per MiB of source")
    shutil.rmtree(cls)
PY
