//! A package's own programs have limits derived from the package, and
//! `verify` has one overall budget: a validator that never ends is stopped
//! at its derived limit, or when the budget runs out, and verify names it;
//! meanwhile verify says what it runs. Each test writes its package and
//! runs real interpreters.

mod common;

use std::path::PathBuf;

use common::{Project, grundy_text};

/// A package squaring `n`, a time limit of 1 s (DOMjudge's `.timelimit`),
/// an accepted Python program, and the input validator `validator`
/// (Python).
fn package(p: &Project, validator: &str) -> PathBuf {
    p.write("sq/problem.yaml", "name: Square\n");
    p.write("sq/.timelimit", "1\n");
    for (i, n) in [3u64, 12].iter().enumerate() {
        p.write(&format!("sq/data/secret/{}.in", i + 1), &format!("{n}\n"));
        p.write(
            &format!("sq/data/secret/{}.ans", i + 1),
            &format!("{}\n", n * n),
        );
    }
    p.write(
        "sq/submissions/accepted/a.py",
        "n = int(input())\nprint(n * n)\n",
    );
    p.write("sq/input_validators/check.py", validator);
    p.path("sq")
}

#[test]
fn a_validator_that_never_ends_is_stopped_at_its_derived_limit() {
    let p = Project::empty();
    let pkg = package(&p, "while True:\n    pass\n");
    let (code, text) = grundy_text(&p, &["verify", &pkg.to_string_lossy()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("input validator input_validators/check.py was stopped on secret-1 (")
            && text.contains("data/secret/1.in) (stopped at its Cpu limit:"),
        "{text}"
    );
    // 5 × the 1 s time limit is below the least a program gets.
    assert!(
        text.contains("10 s of CPU time per run (5 × the time limit, at least 10 s, at most 60 s)"),
        "{text}"
    );
    // Stopped on the first test: the second is not tried.
    assert!(!text.contains("data/secret/2.in"), "{text}");
}

#[test]
fn verifys_budget_stops_a_sleeping_validator_and_names_it() {
    let p = Project::empty();
    // Sleeping uses no CPU: only the wall clock or the budget stops it.
    let pkg = package(&p, "import time\ntime.sleep(3600)\n");
    let (code, text) = grundy_text(&p, &["verify", &pkg.to_string_lossy(), "--budget", "2"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(
            "verify's budget of 2 s (--budget) ran out while running sq: input validator input_validators/check.py on 2 tests: every run was stopped"
        ),
        "{text}"
    );
    assert!(text.contains("verify: FAILED"), "{text}");
}

#[test]
fn verify_says_what_it_runs() {
    let p = Project::empty();
    let pkg = package(&p, "import sys\nsys.stdin.read()\nsys.exit(42)\n");
    // No time limit: it is measured on the accepted program first.
    std::fs::remove_file(pkg.join(".timelimit")).expect("rm");
    p.write(
        "sq/submissions/wrong_answer/plus.py",
        "n = int(input())\nprint(n + n)\n",
    );
    // A cache of its own (the suite's is shared): the limit is measured
    // here, not found kept from another run.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("verify")
        .arg(&pkg)
        .arg("--problems")
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(p.path("cache"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run grundy");
    let (text, err) = (common::stdout(&out), common::stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{text}\n{err}");
    // The derived limit says which interpreter measured it (a package's
    // Python 3 runs with PyPy where it is installed).
    assert!(
        text.lines()
            .any(|l| l.contains("derived as the format says")
                && l.contains("(accepted/a.py on secret-")
                && (l.contains(", Python 3 (PyPy) run by /")
                    || l.contains(", Python 3 (CPython: no pypy3 here) run by /"))),
        "{text}"
    );
    let steps: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("verify sq: "))
        .collect();
    assert_eq!(
        steps,
        [
            "verify sq: preparing the tests",
            "verify sq: measuring the time limit: accepted/a.py on 2 tests (at most 60 s a test) [1/1]",
            "verify sq: input validator input_validators/check.py on 2 tests",
            "verify sq: reference submissions/accepted/a.py on 2 tests",
            "verify sq: submissions/accepted/a.py (expected AC) on 2 tests [1/2]",
            "verify sq: submissions/wrong_answer/plus.py (expected WA) on 2 tests [2/2]",
        ],
        "{err}"
    );
}
