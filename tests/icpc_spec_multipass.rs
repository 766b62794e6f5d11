//! Multi-pass in grundy's own spec: `passes: N` with an ICPC output
//! validator (`checker: {icpc: …}`) runs the submission again on the
//! `nextpass.in` the validator writes, as for a multi-pass package. The
//! toy Nim problem's validator asks, after the first pass, for a second
//! game: one pile of 0 (Bob wins). Real processes.

mod common;

use common::{Project, TOY_C, stderr, stdout, verdicts};

/// Checks the winner of the game it was given; on the first pass (no
/// `seen` file in the feedback folder yet) asks for the game `1\n0\n`.
const CHECK: &str = r#"import os, sys
game = open(sys.argv[1]).read().split()
piles = [int(x) for x in game[1:1 + int(game[0])]]
x = 0
for p in piles:
    x ^= p
want = "Alice" if x else "Bob"
got = sys.stdin.read().split()
feedback = sys.argv[3]
first = not os.path.exists(os.path.join(feedback, "seen"))
with open(os.path.join(feedback, "judgemessage.txt"), "a") as m:
    if got != [want]:
        m.write("expected %s, got %s\n" % (want, " ".join(got)))
        sys.exit(43)
if first:
    open(os.path.join(feedback, "seen"), "w").close()
    with open(os.path.join(feedback, "nextpass.in"), "w") as f:
        f.write("1\n0\n")
sys.exit(42)
"#;

fn multi_pass_toy(passes: &str) -> Project {
    let p = Project::toy(&format!("checker: {{icpc: check.py}}\npasses: {passes}\n"));
    p.write("problems/toy/check.py", CHECK);
    p
}

#[test]
fn the_second_pass_runs_on_the_input_the_validator_wrote() {
    let p = multi_pass_toy("2");
    let ok = p.judge_source("good.c", TOY_C, &[]);
    // The sample and the three tests of the groups.
    assert_eq!(verdicts(&ok), vec!["AC"; 4], "{ok}");
    // Right on every test's game, wrong only on the second pass's `1 0`.
    let fooled = p.judge_source(
        "fooled.py",
        "data = input(), input()\nif data == ('1', '0'):\n    print('Alice')\nelse:\n    x = 0\n    for v in data[1].split():\n        x ^= int(v)\n    print('Alice' if x else 'Bob')\n",
        &[],
    );
    let tests = fooled["tests"].as_array().cloned().unwrap_or_default();
    // Each group stops at its first failure: the sample and one test of each.
    assert_eq!(tests.len(), 3, "{fooled}");
    for t in &tests {
        assert_eq!(t["verdict"], "WA", "{fooled}");
        let message = t["message"].as_str().unwrap_or("");
        assert!(message.starts_with("pass 2"), "{fooled}");
        assert!(message.contains("expected Bob, got Alice"), "{fooled}");
    }
}

#[test]
fn one_pass_fewer_than_the_validator_asks_for_is_a_judge_error() {
    // A validator that asks for another pass every time: its request on
    // the second pass is past `passes: 2`.
    let p = multi_pass_toy("2");
    p.write(
        "problems/toy/check.py",
        &CHECK.replace("if first:", "if True:"),
    );
    let r = p.judge_source("good.c", TOY_C, &[]);
    let tests = r["tests"].as_array().cloned().unwrap_or_default();
    assert!(!tests.is_empty(), "{r}");
    for t in &tests {
        assert_eq!(t["verdict"], "IE", "{r}");
        assert!(
            t["message"].as_str().unwrap_or("").contains("pass 2"),
            "{r}"
        );
    }
}

#[test]
fn passes_without_an_icpc_validator_or_out_of_bounds_are_refused_naming_the_file() {
    for (extra, says) in [
        ("passes: 3\n", "checker: {icpc: PROGRAM}"),
        ("checker: {icpc: check.py}\npasses: 1\n", "at least 2"),
        ("checker: {icpc: check.py}\npasses: 5000\n", "at most 1000"),
    ] {
        let p = Project::toy(extra);
        p.write("problems/toy/check.py", CHECK);
        let out = p.grundy(&["verify", "toy"]);
        let text = format!("{}\n{}", stdout(&out), stderr(&out));
        assert_eq!(out.status.code(), Some(2), "{extra}: {text}");
        assert!(text.contains("problem.yaml"), "{extra}: {text}");
        assert!(text.contains(says), "{extra}: {text}");
    }
}
