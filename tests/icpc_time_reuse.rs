//! `verify` on a package with no time limit: the accepted programs are
//! judged on every test to derive the limit, and those results are their
//! verdicts under it (every run within it), so each runs once per test;
//! the output validator's time per run follows the problem's time limit,
//! and one that never ends is stopped there and named. Each test writes
//! its package and runs real interpreters.

mod common;

use std::path::{Path, PathBuf};

use common::{Project, grundy_text, stderr, stdout};

/// A package squaring `n` with 3 tests and no time limit (derived from
/// the accepted program). Its accepted Python program appends a line to
/// `log` each time it runs.
fn package(p: &Project, log: &Path) -> PathBuf {
    p.write("sq/problem.yaml", "name: Square\n");
    for (i, n) in [3u64, 12, 40].iter().enumerate() {
        p.write(&format!("sq/data/secret/{}.in", i + 1), &format!("{n}\n"));
        p.write(
            &format!("sq/data/secret/{}.ans", i + 1),
            &format!("{}\n", n * n),
        );
    }
    p.write(
        "sq/submissions/accepted/a.py",
        &format!(
            "n = int(input())\nwith open({:?}, 'a') as f:\n    f.write('ran\\n')\nprint(n * n)\n",
            log.display().to_string()
        ),
    );
    p.write(
        "sq/submissions/wrong_answer/plus.py",
        "n = int(input())\nprint(n + n)\n",
    );
    p.path("sq")
}

/// `grundy verify` with its own cache (a measurement kept in the shared
/// test cache would skip the derivation) and no sandbox, so that the
/// program can write its log.
fn verify(p: &Project, pkg: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("verify")
        .arg(pkg)
        .arg("--problems")
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(p.path("cache"))
        .args(["--sandbox", "off", "--allow-weak-sandbox"])
        .args(extra)
        .env("NO_COLOR", "1")
        .output()
        .expect("run grundy");
    (
        out.status.code(),
        format!("{}\n{}", stdout(&out), stderr(&out)),
    )
}

#[test]
fn an_accepted_program_measured_for_the_limit_runs_once_per_test() {
    let p = Project::empty();
    let log = p.path("runs.log");
    let pkg = package(&p, &log);
    let (code, text) = verify(&p, &pkg, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("derived as the format says"), "{text}");
    // It is the reference and a known accepted submission, and measured
    // the limit: judged once, on each of the 3 tests.
    let runs = std::fs::read_to_string(&log).expect("the program ran");
    assert_eq!(runs.lines().count(), 3, "{text}");
    assert!(
        text.contains(
            "judged from their runs measuring the time limit, every run within the derived limit (not run again): accepted/a.py"
        ),
        "{text}"
    );
    assert!(text.contains("ok  a.py"), "{text}");
    assert!(text.contains("ok  plus.py"), "{text}");
    // A second verify finds the limit kept in the cache: nothing is
    // measured, so the program is judged again on each test, once: as the
    // reference, whose result is the known accepted submission's (the
    // same file).
    let (code, text) = verify(&p, &pkg, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("kept in the cache"), "{text}");
    let runs = std::fs::read_to_string(&log).expect("the program ran");
    assert_eq!(runs.lines().count(), 3 + 3, "{text}");
    assert!(
        text.contains(
            "judged once, as the reference and as a known submission (the same program): submissions/accepted/a.py"
        ),
        "{text}"
    );
    assert!(text.contains("ok  a.py"), "{text}");
}

#[test]
fn an_output_validator_that_never_ends_is_stopped_at_its_derived_limit() {
    let p = Project::empty();
    p.write("sq/problem.yaml", "name: Square\nvalidation: custom\n");
    p.write("sq/.timelimit", "1\n");
    p.write("sq/data/secret/1.in", "3\n");
    p.write("sq/data/secret/1.ans", "9\n");
    p.write(
        "sq/submissions/accepted/a.py",
        "n = int(input())\nprint(n * n)\n",
    );
    // Sleeping uses no CPU: its wall-clock time stops it.
    p.write(
        "sq/output_validators/forever/validate.py",
        "import time\ntime.sleep(3600)\n",
    );
    let pkg = p.path("sq").to_string_lossy().into_owned();
    let (code, text) = grundy_text(&p, &["verify", &pkg]);
    assert_eq!(code, Some(1), "{text}");
    // 5 × the 1 s time limit is below the least a validator gets: 10 s,
    // not a fixed 30 s.
    assert!(
        text.contains("checker `output_validators/forever")
            && text.contains("` did not finish within 10 s and was killed"),
        "{text}"
    );
}
