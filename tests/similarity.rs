//! `grundy similar`: a class folder made here, in which two students
//! handed in renamed and reformatted copies of a third one's program and a
//! fourth copied part of it, while six others wrote their own short
//! solutions of the same ten-line problem. The copies must be found, the
//! independent solutions must not be paired.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The original: a Nim solution with its own input reader.
const ORIGINAL: &str = r#"#include <stdio.h>
#include <ctype.h>

/* Reads the next non-negative number from stdin; -1 at the end. */
static long next_number(void) {
    int c = getchar();
    while (c != EOF && !isdigit(c)) c = getchar();
    if (c == EOF) return -1;
    long value = 0;
    while (c != EOF && isdigit(c)) {
        value = value * 10 + (c - '0');
        c = getchar();
    }
    return value;
}

static int winner(const long *piles, int count) {
    long x = 0;
    for (int i = 0; i < count; i++) {
        x ^= piles[i];
    }
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
    if (winner(piles, (int)n)) printf("Alice\n");
    else printf("Bob\n");
    return 0;
}
"#;

/// Every name changed, comments added, one-line layout, other constants.
const RENAMED: &str = r#"#include <stdio.h>
#include <ctype.h>
// my solution!!
static long rd(void){int ch=getchar();while(ch!=EOF&&!isdigit(ch))ch=getchar();
if(ch==EOF)return -7;long acc=0;
while(ch!=EOF&&isdigit(ch)){acc=acc*10+(ch-'0');ch=getchar();}return acc;}
static int first_wins(const long *heap,int m){long s=0;for(int j=0;j<m;j++){s^=heap[j];}return s!=0;}
int main(void){long heap[500];long cnt=rd();if(cnt<0||cnt>1000)return 2;
for(long k=0;k<cnt;k++){long h=rd();if(h<0)return 2;heap[k]=h;}
if(first_wins(heap,(int)cnt))printf("First\n");else printf("Second\n");return 0;}
"#;

/// Renamed, re-indented, braces moved, the functions in another order.
const REORDERED: &str = r#"#include <stdio.h>
#include <ctype.h>

static int
decide (const long *a, int len)
{
  long acc = 0;
  for (int t = 0; t < len; t++)
    {
      acc ^= a[t];
    }
  return acc != 0;
}

/*
 * input
 */
static long
get (void)
{
  int k = getchar ();
  while (k != EOF && !isdigit (k))
    k = getchar ();
  if (k == EOF)
    return -1;
  long num = 0;
  while (k != EOF && isdigit (k))
    {
      num = num * 10 + (k - '0');
      k = getchar ();
    }
  return num;
}

int
main (void)
{
  long stones[128];
  long total = get ();
  if (total < 0 || total > 100)
    return 1;
  for (long q = 0; q < total; q++)
    {
      long v = get ();
      if (v < 0)
        return 1;
      stones[q] = v;
    }
  if (decide (stones, (int) total))
    printf ("Alice\n");
  else
    printf ("Bob\n");
  return 0;
}
"#;

/// The reader and the helper copied (renamed), the rest written
/// differently.
const PARTIAL: &str = r#"#include <stdio.h>
#include <ctype.h>

static long read_int(void) {
    int d = getchar();
    while (d != EOF && !isdigit(d)) d = getchar();
    if (d == EOF) return -1;
    long r = 0;
    while (d != EOF && isdigit(d)) {
        r = r * 10 + (d - '0');
        d = getchar();
    }
    return r;
}

static int nonzero(const long *h, int c) {
    long acc = 0;
    for (int u = 0; u < c; u++) {
        acc ^= h[u];
    }
    return acc != 0;
}

int main(void) {
    long left = read_int();
    long all[100];
    int seen = 0;
    while (left-- > 0 && seen < 100) {
        all[seen++] = read_int();
    }
    puts(nonzero(all, seen) ? "Alice" : "Bob");
    return 0;
}
"#;

/// Independent solutions of the short problem, as students write them.
const INDEPENDENT: &[(&str, &str)] = &[
    (
        "dana.c",
        "#include <stdio.h>\nint main(){int n,a,x=0;scanf(\"%d\",&n);for(int i=0;i<n;i++){scanf(\"%d\",&a);x^=a;}printf(x?\"Alice\\n\":\"Bob\\n\");return 0;}\n",
    ),
    (
        "eve.c",
        "#include <stdio.h>\n\nint main(void)\n{\n    int n, x = 0;\n    scanf(\"%d\", &n);\n    while (n--) {\n        int a;\n        scanf(\"%d\", &a);\n        x ^= a;\n    }\n    if (x) puts(\"Alice\");\n    else puts(\"Bob\");\n    return 0;\n}\n",
    ),
    (
        "finn.c",
        "#include <stdio.h>\n\nint main() {\n    int n;\n    long long s = 0, v;\n    if (scanf(\"%d\", &n) != 1) return 0;\n    for (int i = 0; i < n; ++i) {\n        scanf(\"%lld\", &v);\n        s ^= v;\n    }\n    printf(\"%s\\n\", s != 0 ? \"Alice\" : \"Bob\");\n    return 0;\n}\n",
    ),
    (
        "gus.c",
        "#include <stdio.h>\n\nint piles[105];\n\nint main(void) {\n    int n, i, r = 0;\n    scanf(\"%d\", &n);\n    for (i = 0; i < n; i++) scanf(\"%d\", &piles[i]);\n    for (i = 0; i < n; i++) r ^= piles[i];\n    printf(\"%s\\n\", r ? \"Alice\" : \"Bob\");\n    return 0;\n}\n",
    ),
    (
        "hana.py",
        "import sys\n\nnums = list(map(int, sys.stdin.read().split()))\nx = 0\nfor v in nums[1:1 + nums[0]]:\n    x ^= v\nprint(\"Alice\" if x else \"Bob\")\n",
    ),
    (
        "ivo.py",
        "n = int(input())\npiles = []\nwhile len(piles) < n:\n    piles += [int(t) for t in input().split()]\nresult = 0\nfor p in piles:\n    result = result ^ p\nif result != 0:\n    print(\"Alice\")\nelse:\n    print(\"Bob\")\n",
    ),
];

fn problems() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("problems")
}

fn similar(dir: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("similar")
        .arg(dir)
        .args(["--problem", "nim", "--json", "--out"])
        .arg(out)
        .args(extra)
        .arg("--problems")
        .arg(problems())
        .output()
        .expect("run grundy")
}

fn class(dir: &Path) {
    std::fs::create_dir_all(dir).expect("mkdir");
    for (name, text) in [
        ("alice.c", ORIGINAL),
        ("bob.c", RENAMED),
        ("carol.c", REORDERED),
        ("pat.c", PARTIAL),
    ]
    .into_iter()
    .chain(INDEPENDENT.iter().copied())
    {
        std::fs::write(dir.join(name), text).expect("write");
    }
}

/// Every two students reported alike: in a group of copies, or as a pair.
fn alike(report: &serde_json::Value) -> BTreeSet<(String, String)> {
    let mut out = pairs(report);
    for c in report["copies"].as_array().expect("copies") {
        let who: Vec<String> = c["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|f| f["student"].as_str().expect("student").to_string())
            .collect();
        for (i, a) in who.iter().enumerate() {
            for b in &who[i + 1..] {
                out.insert((a.clone().min(b.clone()), a.clone().max(b.clone())));
            }
        }
    }
    out
}

/// The groups of copies: (kind, students).
fn copies(report: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    report["copies"]
        .as_array()
        .expect("copies")
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().expect("kind").to_string(),
                c["files"]
                    .as_array()
                    .expect("files")
                    .iter()
                    .map(|f| f["student"].as_str().expect("student").to_string())
                    .collect(),
            )
        })
        .collect()
}

/// The reported pairs (not the copies) as sorted student-name pairs.
fn pairs(report: &serde_json::Value) -> BTreeSet<(String, String)> {
    report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .map(|p| {
            let a = p["a"]["student"].as_str().expect("a").to_string();
            let b = p["b"]["student"].as_str().expect("b").to_string();
            (a.clone().min(b.clone()), a.max(b))
        })
        .collect()
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn renamed_reformatted_and_partial_copies_are_found_and_independent_solutions_are_not() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("class");
    class(&dir);
    let out = t.path().join("out");
    let o = similar(&dir, &out, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    let found = alike(&report);
    // Bob renamed and reformatted Alice's program: the same program.
    assert_eq!(
        copies(&report),
        [(
            "same-tokens".to_string(),
            vec!["alice".to_string(), "bob".to_string()]
        )],
        "{report:#}"
    );
    for copy in [
        pair("alice", "bob"),
        pair("alice", "carol"),
        pair("bob", "carol"),
        pair("alice", "pat"),
    ] {
        assert!(found.contains(&copy), "{copy:?} not found in {found:?}");
    }
    let copiers = ["alice", "bob", "carol", "pat"];
    for (a, b) in &found {
        assert!(
            copiers.contains(&a.as_str()) && copiers.contains(&b.as_str()),
            "independent solutions paired: {a} ~ {b} in {found:?}"
        );
    }
    // The full copies score higher than the partial one.
    let score = |a: &str, b: &str| {
        report["pairs"]
            .as_array()
            .expect("pairs")
            .iter()
            .find(|p| p["a"]["student"] == a && p["b"]["student"] == b)
            .and_then(|p| p["score"].as_f64())
            .expect("score")
    };
    assert!(score("alice", "carol") > score("alice", "pat"));
    // The matching regions point at the copied lines: the reader, lines
    // 5-15 of the original and 4-14 of the partial copy, is matched at
    // least up to its digit loop (whose end is also in the problem's Java
    // solution: base code, not evidence).
    let partial = report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .find(|p| p["a"]["student"] == "alice" && p["b"]["student"] == "pat")
        .expect("alice ~ pat");
    let regions = partial["regions"].as_array().expect("regions");
    assert!(
        regions.iter().any(|r| {
            let (a0, a1) = (
                r["a"][0].as_u64().unwrap_or(0),
                r["a"][1].as_u64().unwrap_or(0),
            );
            let (b0, b1) = (
                r["b"][0].as_u64().unwrap_or(0),
                r["b"][1].as_u64().unwrap_or(0),
            );
            a0 <= 5 && a1 >= 10 && b0 <= 4 && b1 >= 9
        }),
        "{regions:?}"
    );
    // The base code (the problem's accepted solutions) was taken out.
    let nim = &report["problems"][0];
    assert_eq!(nim["submissions"], 10);
    assert!(nim["base_files"].as_array().is_some_and(|b| !b.is_empty()));
    // The same report on disk, and a page showing the pairs side by side.
    let on_disk: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("similarity.json")).expect("json"))
            .expect("parse");
    assert_eq!(on_disk, report);
    let html = std::fs::read_to_string(out.join("similarity.html")).expect("html");
    assert!(html.contains("id=\"pair-1\""));
    assert!(html.contains("class=\"l r0\""), "a highlighted region");
    assert!(
        html.contains("rd(void){int ch=getchar()"),
        "bob's source is shown"
    );
    assert!(!html.contains("<script"));
}

#[test]
fn a_short_copy_of_the_accepted_solution_is_not_evidence() {
    // Two students who both wrote the textbook answer (the accepted
    // solution, renamed) are not paired: it is the problem's base code.
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("class");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let accepted =
        std::fs::read_to_string(problems().join("nim/submissions/accepted/solution.cpp"))
            .expect("accepted solution");
    std::fs::write(dir.join("kim.cpp"), &accepted).expect("write");
    std::fs::write(
        dir.join("lee.cpp"),
        accepted.replace("x", "acc").replace("    ", "\t"),
    )
    .expect("write");
    let o = similar(&dir, &t.path().join("out"), &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(pairs(&report).is_empty(), "{report}");
    // The two files are the same program, and so are reported as copies,
    // however short; the report says it is the problem's own solution.
    assert_eq!(
        copies(&report),
        [(
            "same-tokens".to_string(),
            vec!["kim".to_string(), "lee".to_string()]
        )],
        "{report:#}"
    );
    assert_eq!(
        report["copies"][0]["base"], "submissions/accepted/solution.cpp",
        "{report:#}"
    );
    // Lee's file changed a little more (a line added): no longer the same
    // program, and only the base code (taken out) in common with Kim's.
    std::fs::write(
        dir.join("lee.cpp"),
        accepted.replace("x", "acc").replace("    ", "\t").replace(
            "int main() {",
            "int main() {\n\tint unused = 0; unused += 1; unused *= 2;\n\tif (unused) unused--;",
        ),
    )
    .expect("write");
    let o = similar(&dir, &t.path().join("out"), &[]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(alike(&report).is_empty(), "{report:#}");
    // With no base code (a copy of the problem without its accepted
    // solutions) the same two are paired: taking the base code out is
    // what keeps them apart.
    let bare = t.path().join("bare");
    std::fs::create_dir_all(bare.join("nim")).expect("mkdir");
    std::fs::copy(
        problems().join("nim/problem.yaml"),
        bare.join("nim/problem.yaml"),
    )
    .expect("copy the spec");
    let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("similar")
        .arg(&dir)
        .args(["--problem", "nim", "--json", "--min-matches", "5", "--out"])
        .arg(t.path().join("out2"))
        .arg("--problems")
        .arg(&bare)
        .output()
        .expect("run");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        pairs(&report),
        BTreeSet::from([pair("kim", "lee")]),
        "{report}"
    );
}

#[test]
fn bad_usage_exits_2() {
    let t = tempfile::tempdir().expect("tempdir");
    let o = similar(&t.path().join("missing"), &t.path().join("out"), &[]);
    assert_eq!(o.status.code(), Some(2));
    let dir = t.path().join("class");
    class(&dir);
    let o = similar(&dir, &t.path().join("out"), &["--threshold", "1.5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--threshold"));
}

#[test]
fn grade_with_similarity_writes_the_pairs_beside_the_grades() {
    // A small problem of the batch fixtures, so the grade is quick: two
    // renamed copies and an independent solution.
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("class");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/batch");
    let xor = std::fs::read_to_string(fixtures.join("templates/xor_ok.c")).expect("template");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("ann.c"), ORIGINAL).expect("write");
    std::fs::write(dir.join("ben.c"), RENAMED).expect("write");
    std::fs::write(dir.join("cid.c"), &xor).expect("write");
    let out = t.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("grade")
        .arg(&dir)
        .args(["--problem", "xor", "--similarity", "--out"])
        .arg(&out)
        .arg("--problems")
        .arg(fixtures.join("problems"))
        .arg("--cache")
        .arg(t.path().join("cache"))
        .output()
        .expect("run grundy");
    // The grade's own exit status (some answers are wrong for this problem).
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.join("grades.csv").is_file());
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("similarity.json")).expect("json"))
            .expect("parse");
    assert_eq!(alike(&report), BTreeSet::from([pair("ann", "ben")]));
    assert!(out.join("similarity.html").is_file());
}

/// Ten lines of Python: too short for the fingerprints a partial copy
/// needs, but a copy of it is a copy.
const SHORT: &str = r#"import sys
data = sys.stdin.read().split()
n = int(data[0])
piles = [int(v) for v in data[1:n + 1]]
x = 0
for p in piles:
    x ^= p
if x != 0:
    print("Alice")
else:
    print("Bob")
"#;

/// Every name changed, a comment added, blank lines.
const SHORT_RENAMED: &str = r#"import sys
# read everything
tokens = sys.stdin.read().split()

count = int(tokens[0])
heaps = [int(t) for t in tokens[1:count + 1]]
acc = 0
for h in heaps:
    acc ^= h
if acc != 0:
    print("First")
else:
    print("Second")
"#;

/// Someone else's way of writing it.
const SHORT_OTHER: &str = r#"from functools import reduce
from operator import xor
nums = list(map(int, open(0).read().split()))
print("Alice" if reduce(xor, nums[1:], 0) else "Bob")
"#;

/// Exact copies and renamed copies of a ten-line program are reported,
/// and a copy a couple of tokens away from another too, however few
/// fingerprints they hold; a short independent solution is not.
#[test]
fn copies_of_a_short_program_are_always_reported() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("class");
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (name, text) in [
        ("ann.py", SHORT.to_string()),
        ("ben.py", SHORT.to_string()),
        ("cid.py", SHORT_RENAMED.to_string()),
        ("dee.py", SHORT_RENAMED.replace("if acc != 0:", "if acc:")),
        ("eve.py", SHORT_OTHER.to_string()),
    ] {
        std::fs::write(dir.join(name), text).expect("write");
    }
    let out = t.path().join("out");
    let o = similar(&dir, &out, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        copies(&report),
        [
            ("identical".to_string(), s(&["ann", "ben"])),
            ("same-tokens".to_string(), s(&["ann", "ben", "cid"])),
        ],
        "{report:#}"
    );
    let near: Vec<(String, String, u64)> = report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .filter_map(|p| {
            Some((
                p["a"]["student"].as_str()?.to_string(),
                p["b"]["student"].as_str()?.to_string(),
                p["near_identical"].as_u64()?,
            ))
        })
        .collect();
    // Dee's file is Cid's with a condition written shorter.
    assert_eq!(
        near,
        [("cid".to_string(), "dee".to_string(), 2)],
        "{report:#}"
    );
    assert!(
        !alike(&report).iter().any(|(a, b)| a == "eve" || b == "eve"),
        "{report:#}"
    );
    // On the terminal, and on the page.
    let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("similar")
        .arg(&dir)
        .args(["--problem", "nim", "--out"])
        .arg(&out)
        .arg("--problems")
        .arg(problems())
        .output()
        .expect("run grundy");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("identical files: nim  ann (ann.py), ben (ben.py)"),
        "{text}"
    );
    assert!(text.contains("near-identical: 2 tokens differ"), "{text}");
    let html = std::fs::read_to_string(out.join("similarity.html")).expect("html");
    assert!(html.contains("data-kind=\"identical\""), "{html}");
    assert!(html.contains("data-kind=\"same-tokens\""), "{html}");

    // `grade --similarity` reports the same, and says the identical files
    // were judged once.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/batch");
    let graded = t.path().join("graded");
    let o = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("grade")
        .arg(&dir)
        .args(["--problem", "xor", "--similarity", "--out"])
        .arg(&graded)
        .arg("--problems")
        .arg(fixtures.join("problems"))
        .arg("--cache")
        .arg(t.path().join("cache"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run grundy");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("identical files, judged once: ann.py, ben.py (xor)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("identical files: xor  ann (ann.py), ben (ben.py)"),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(graded.join("similarity.json")).expect("json"))
            .expect("parse");
    assert_eq!(copies(&report).len(), 2, "{report:#}");
    let page = std::fs::read_to_string(graded.join("report.html")).expect("report.html");
    assert!(
        page.contains("<h2>Identical files</h2>")
            && page.contains("<code>ann.py</code>, <code>ben.py</code>"),
        "{page}"
    );
}

/// `similar` on a class holding a 24 MiB source and two files that repeat
/// one block thousands of times, under an address-space limit of 512 MiB:
/// the large file is named and not compared, the others are compared, and
/// the limit is never reached (parsing the large file whole took over
/// 1.5 GB; matching the repetitive pair place by place, over 2 GB).
#[test]
fn similar_stays_within_bounded_memory() {
    use std::os::unix::process::CommandExt;
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("class");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let mut big = String::from("#include <stdio.h>\n");
    let mut i = 0;
    while big.len() < 24 << 20 {
        big.push_str(&format!(
            "int f{i}(int a) {{ int b = a * {} + {i}; if (b > 3) return b - a; for (int j = 0; j < a; j++) b ^= j; return b; }}\n",
            i % 97
        ));
        i += 1;
    }
    std::fs::write(dir.join("big.c"), &big).expect("write");
    let unit = "x=y+z;x=y-z;x=y*z;x=y/z;x=y%z;x=y&z;x=y|z;x=y^z;x=y<<z;x=y>>z;if(x)y=z;while(x)y--;for(;;)break;x+=1;y-=2;z*=3;\n";
    let body = unit.repeat(600_000 / unit.len());
    std::fs::write(dir.join("rep.c"), format!("int main(){{\n{body}}}\n")).expect("write");
    std::fs::write(
        dir.join("tit.c"),
        format!("void g(int q){{\n{body}return;}}\n"),
    )
    .expect("write");
    std::fs::write(dir.join("ann.py"), SHORT).expect("write");
    std::fs::write(dir.join("ben.py"), SHORT).expect("write");
    let mut c = Command::new(env!("CARGO_BIN_EXE_grundy"));
    c.arg("similar")
        .arg(&dir)
        .args(["--problem", "nim", "--json", "--out"])
        .arg(t.path().join("out"))
        .arg("--problems")
        .arg(problems());
    // SAFETY: setrlimit is async-signal-safe and touches nothing else.
    unsafe {
        c.pre_exec(|| {
            let cap = libc::rlimit {
                rlim_cur: 512 << 20,
                rlim_max: 512 << 20,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = c.output().expect("run grundy");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{:?}: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let skipped = report["skipped"].as_array().expect("skipped");
    assert!(
        skipped.iter().any(|s| s["file"] == "big.c"
            && s["reason"]
                .as_str()
                .is_some_and(|r| r.contains("larger than the 1 MiB compared"))),
        "{report:#}"
    );
    assert_eq!(report["problems"][0]["submissions"], 4, "{report:#}");
    assert!(alike(&report).contains(&pair("rep", "tit")), "{report:#}");
    assert!(alike(&report).contains(&pair("ann", "ben")), "{report:#}");
}
