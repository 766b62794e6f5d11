//! `score` under a test group key of `submissions.yaml` (2025-09): the
//! score the submission earns on that test data group, in the package's
//! units, checked by `verify` like the submission's own `score`. The
//! scoring package is written here; real processes.

mod common;

use std::path::PathBuf;

use common::doubling::{FULL, SMALL_ONLY, tests};
use common::{Project, verify_package as verify};

/// `a`: pass-fail, worth 40, large inputs only; `b`: three tests worth 20
/// each, two of them small. SMALL_ONLY earns 0 on `a` and 40 on `b`.
fn package(p: &Project, expectations: &str) -> PathBuf {
    p.write(
        "halves/problem.yaml",
        "problem_format_version: 2025-09\nname: Halves\ntype: scoring\nuuid: 3c9d\nlimits: {time_limit: 2}\n",
    );
    tests(p, "halves/data/sample", &[4]);
    p.write("halves/data/secret/a/test_group.yaml", "max_score: 40\n");
    tests(p, "halves/data/secret/a", &[100, 200]);
    p.write(
        "halves/data/secret/b/test_group.yaml",
        "max_score: 60\nscore_aggregation: sum\n",
    );
    tests(p, "halves/data/secret/b", &[5, 6, 60]);
    p.write("halves/submissions/accepted/full.py", FULL);
    p.write("halves/submissions/rejected/small.py", SMALL_ONLY);
    p.write("halves/submissions/submissions.yaml", expectations);
    p.path("halves")
}

#[test]
fn a_test_groups_score_is_checked_against_what_the_group_earns() {
    let p = Project::empty();
    let pkg = package(
        &p,
        "accepted:\n  secret/a:\n    score: 40\n  secret/b:\n    score: 60\nrejected/small.py:\n  score: 40\n  secret/a:\n    score: 0\n  secret/b:\n    score: [30, 50]\n",
    );
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("not checked"), "{text}");
    assert!(
        text.lines().any(|l| l.contains("small.py")
            && l.starts_with("  ok ")
            && l.contains("on secret/b: score 30 to 50")),
        "{text}"
    );

    // A wrong expectation on one group is caught, naming the group and
    // what it earned of its maximum.
    let p = Project::empty();
    let pkg = package(
        &p,
        "rejected/small.py:\n  score: 40\n  secret/a:\n    score: 40\n",
    );
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("small.py"))
        .unwrap_or_else(|| panic!("no line for small.py:\n{text}"));
    assert!(line.contains("BAD"), "{line}");
    assert!(
        line.contains("broken: submissions.yaml `rejected/small.py`: on secret/a: score 40: secret/a: score 0 of 40, expected 40"),
        "{line}"
    );

    // A group key naming no scored group is said, not passed over.
    let p = Project::empty();
    let pkg = package(&p, "rejected/small.py:\n  secret/c:\n    score: 10\n");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("no scored test data group matches `secret/c`"),
        "{text}"
    );
}
