//! A scoring package whose output validator gives accepted tests part of
//! their credit (`score.txt`, `score_multiplier.txt` in its feedback
//! folder), as the format's "Scoring test cases" says; a file beyond the
//! test's maximum is the package's fault (`IE`). The package is written
//! here; real processes.

mod common;

use std::path::PathBuf;

use common::doubling::tests;
use common::{Project, judge_package as judge, verify_package as verify};

/// Accepts any answer from 1 up to the right one, with credit in
/// proportion: as an absolute `score.txt` on odd inputs (their tests are
/// worth 20 each), as `score_multiplier.txt` on even ones. One more than
/// the answer gets a `score.txt` of 25, over the maximum.
const VALIDATOR: &str = r#"import os, sys
n = int(open(sys.argv[1]).read())
y = int(open(sys.argv[2]).read())
feedback = sys.argv[3]
try:
    x = int(sys.stdin.read())
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
        "near/problem.yaml",
        "problem_format_version: 2025-09\nname: Near\ntype: scoring\nuuid: 91fe\nlimits: {time_limit: 2}\n",
    );
    p.write("near/output_validator/validate.py", VALIDATOR);
    tests(p, "near/data/sample", &[4]);
    p.write(
        "near/data/secret/a/test_group.yaml",
        "max_score: 60\nscore_aggregation: sum\n",
    );
    tests(p, "near/data/secret/a", &[1, 3, 5]);
    p.write(
        "near/data/secret/b/test_group.yaml",
        "max_score: 40\nscore_aggregation: min\n",
    );
    tests(p, "near/data/secret/b", &[2, 8]);
    p.write(
        "near/submissions/accepted/full.py",
        "print(2 * int(input()))\n",
    );
    p.write(
        "near/submissions/partially_accepted/half.py",
        "print(int(input()))\n",
    );
    p.write(
        "near/submissions/submissions.yaml",
        "accepted:\n  score: 100\npartially_accepted/half.py:\n  permitted: [AC]\n  score: 50\n  secret/a:\n    score: 30\n  secret/b:\n    score: 20\n",
    );
    p.path("near")
}

#[test]
fn an_output_validators_score_files_give_accepted_tests_part_of_their_credit() {
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
    let secret: Vec<_> = tests.iter().filter(|t| t["group"] != "sample").collect();
    assert_eq!(secret.len(), 5, "{r:#}");
    assert!(secret.iter().all(|t| t["share"] == 0.5), "{r:#}");
    // Samples score nothing: what the validator wrote there is ignored.
    assert!(
        tests
            .iter()
            .filter(|t| t["group"] == "sample")
            .all(|t| t["share"].is_null()),
        "{r:#}"
    );

    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("score.txt"), "{text}");

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
        t["message"], "the output validator's score.txt says 25, more than the test's maximum 20",
        "{r:#}"
    );
}
