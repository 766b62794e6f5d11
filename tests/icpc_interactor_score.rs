//! A scoring interactive package whose interactor gives accepted tests
//! part of their credit: the interactor of an interactive problem is the
//! format's output validator, and its `score.txt` / `score_multiplier.txt`
//! mean what an output validator's do ("Scoring test cases"). The package
//! is written here; real processes, no timing.

mod common;

use std::path::PathBuf;

use common::doubling::tests;
use common::{Project, judge_package as judge, verify_package as verify};

/// Sends the test's `n`, reads the submission's `x`; accepts any `x` from
/// 1 up to `2n`, with credit in proportion: as an absolute `score.txt` on
/// odd inputs (their tests are worth 20 each), as `score_multiplier.txt`
/// on even ones. `2n + 1` gets a `score.txt` of 25, over the maximum.
const INTERACTOR: &str = r#"import os, sys
n = int(open(sys.argv[1]).read())
y = int(open(sys.argv[2]).read())
feedback = sys.argv[3]
print(n, flush=True)
try:
    x = int(sys.stdin.readline())
except ValueError:
    sys.exit(43)
def write(name, text):
    with open(os.path.join(feedback, name), "w") as f:
        f.write(text + "\n")
if x == y + 1:
    write("score.txt", "25")
    sys.exit(42)
if x <= 0 or x > y:
    write("judgemessage.txt", "out of range")
    sys.exit(43)
if n % 2:
    write("score.txt", str(20 * x / y))
else:
    write("score_multiplier.txt", str(x / y))
sys.exit(42)
"#;

/// `a` adds up three odd tests worth 20 each; `b` is a `min` group of two
/// even tests worth 40.
fn package(p: &Project) -> PathBuf {
    p.write(
        "talk/problem.yaml",
        "problem_format_version: 2025-09\nname: Talk\ntype: [scoring, interactive]\nuuid: 91ff\nlimits: {time_limit: 2}\n",
    );
    p.write("talk/output_validator/interact.py", INTERACTOR);
    p.write(
        "talk/data/secret/a/test_group.yaml",
        "max_score: 60\nscore_aggregation: sum\n",
    );
    tests(p, "talk/data/secret/a", &[1, 3, 5]);
    p.write(
        "talk/data/secret/b/test_group.yaml",
        "max_score: 40\nscore_aggregation: min\n",
    );
    tests(p, "talk/data/secret/b", &[2, 8]);
    p.write(
        "talk/submissions/accepted/full.py",
        "print(2 * int(input()))\n",
    );
    p.write(
        "talk/submissions/partially_accepted/half.py",
        "print(int(input()))\n",
    );
    p.write(
        "talk/submissions/submissions.yaml",
        "accepted:\n  score: 100\npartially_accepted/half.py:\n  permitted: [AC]\n  score: 50\n",
    );
    p.path("talk")
}

#[test]
fn an_interactors_score_files_give_accepted_tests_part_of_their_credit() {
    let p = Project::empty();
    let pkg = package(&p);

    let r = judge(&p, &pkg, &pkg.join("submissions/accepted/full.py"));
    assert_eq!(r["verdict"], "AC", "{r:#}");
    assert_eq!(r["score"], 100.0, "{r:#}");

    // Every test accepted with half its credit: a's 3 × 10 and b's 20.
    let r = judge(
        &p,
        &pkg,
        &pkg.join("submissions/partially_accepted/half.py"),
    );
    assert_eq!(r["verdict"], "AC", "{r:#}");
    assert_eq!(r["score"], 50.0, "{r:#}");
    let tests = r["tests"].as_array().cloned().unwrap_or_default();
    assert_eq!(tests.len(), 5, "{r:#}");
    assert!(tests.iter().all(|t| t["share"] == 0.5), "{r:#}");

    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");

    // A score over the test's maximum is the package's error.
    let over = p.write("over.py", "print(2 * int(input()) + 1)\n");
    let r = judge(&p, &pkg, &over);
    assert_eq!(r["verdict"], "IE", "{r:#}");
    let t = r["tests"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["verdict"] == "IE"))
        .cloned()
        .unwrap_or_else(|| panic!("no IE test:\n{r:#}"));
    assert_eq!(
        t["message"], "the interactor's score.txt says 25, more than the test's maximum 20",
        "{r:#}"
    );
}
