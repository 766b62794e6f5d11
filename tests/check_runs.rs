//! External checkers run through the sandbox's runner, sandboxed and with
//! `--sandbox off`: a checker that hangs, floods or writes outside its
//! folder ends with a checker failure (`IE`), leaves no process and no
//! file behind, and a validator's feedback files come back to the judge.
//!
//! The checkers are the Python scripts of `tests/fixtures/checkers/`. Each
//! runs caged by the runner itself, with limits below the defaults (256 MiB,
//! 8 MiB per file), in a working root of the test's own, so that what is
//! left there is this test's alone.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use common::checkers::{assert_gone, check_files, marker, staged_command, write_files};
use grundy::check::{CheckOutcome, CheckVerdict, Runs, build_with};
use grundy::problem::CheckerSpec;
use grundy::sandbox::{Mode, Runner};
use grundy::units::Bytes;
use tempfile::TempDir;

/// A test's files, and the judge's working root the checker runs in.
struct Setup {
    dir: TempDir,
    mode: Mode,
}

impl Setup {
    fn new(mode: Mode, input: &str, output: &str, answer: &str) -> Setup {
        let dir = tempfile::Builder::new()
            .prefix("grundy-check-runs-")
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot make a temporary folder: {e}"));
        let s = Setup { dir, mode };
        write_files(s.dir.path(), input, output, answer, "feedback");
        let passable = |name: &str| {
            fs::create_dir(s.path(name))
                .and_then(|()| fs::set_permissions(s.path(name), fs::Permissions::from_mode(0o711)))
        };
        // A run with another uid passes through, as through the judge's
        // working root and its cache; the checker is staged in `checker`.
        let written = fs::set_permissions(s.dir.path(), fs::Permissions::from_mode(0o711))
            .and_then(|()| passable("root"))
            .and_then(|()| passable("checker"));
        if let Err(e) = written {
            panic!("cannot write the test's files: {e}");
        }
        s
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn runs(&self, timeout: Duration) -> Runs {
        Runs {
            runner: Runner::new(self.mode),
            root: self.path("root"),
            timeout,
            memory: Bytes::mib(256),
            output: Bytes::mib(8),
        }
    }

    fn check(&self, spec: &CheckerSpec, script: &str, timeout: Duration) -> CheckOutcome {
        let command = staged_command(script, &self.path("checker"));
        let checker = build_with(spec, Some(command), self.runs(timeout))
            .unwrap_or_else(|e| panic!("cannot build {script}: {e}"));
        check_files(&*checker, self.dir.path(), "feedback")
    }

    /// What the checker's runs left in the working root.
    fn left_behind(&self) -> Vec<String> {
        fs::read_dir(self.path("root"))
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_else(|e| vec![format!("cannot list the root: {e}")])
    }
}

fn testlib(script: &str) -> CheckerSpec {
    CheckerSpec::Testlib(PathBuf::from(script))
}

fn icpc(script: &str) -> CheckerSpec {
    CheckerSpec::Icpc {
        program: PathBuf::from(script),
        args: vec![],
    }
}

/// Sandboxed runs confine here, or the test must not pass: as root, with
/// user namespaces or Landlock, nothing is missing; elsewhere it is
/// skipped, except in CI, where it fails.
fn sandbox_confines() -> bool {
    let weak = Runner::new(Mode::Auto).weaknesses();
    if weak.is_empty() {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("sandboxed checker runs lack protections here: {weak:?}");
    }
    eprintln!("skipped: sandboxed runs lack protections here: {weak:?}");
    false
}

fn hanging_checker(mode: Mode) {
    let helper = marker("checker-helper");
    let s = Setup::new(mode, &format!("{helper}\n"), "x\n", "x\n");
    // Wide enough for Python to start its helper on a busy machine; the
    // checker never finishes, so only the kill ends it.
    let got = s.check(
        &testlib("sleep_forever.py"),
        "sleep_forever.py",
        Duration::from_secs(10),
    );
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    assert!(
        got.message.starts_with("checker `python3 ")
            && got
                .message
                .ends_with("did not finish within 10 s and was killed: helper started"),
        "{}",
        got.message
    );
    assert_gone(&helper);
    assert_eq!(s.left_behind(), Vec::<String>::new());
}

#[test]
fn hanging_checker_is_killed_with_its_helper_sandboxed() {
    if sandbox_confines() {
        hanging_checker(Mode::Auto);
    }
}

#[test]
fn hanging_checker_is_killed_with_its_helper_without_sandbox() {
    hanging_checker(Mode::Off);
}

fn flooding_checker(mode: Mode) {
    let s = Setup::new(mode, "1\n", "x\n", "x\n");
    let got = s.check(
        &testlib("flood_forever.py"),
        "flood_forever.py",
        Duration::from_secs(120),
    );
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    assert!(
        got.message
            .contains("wrote more than 8 MiB to a file and was stopped: flooding"),
        "{}",
        got.message
    );
    assert_eq!(s.left_behind(), Vec::<String>::new());
}

#[test]
fn flooding_checker_is_stopped_at_its_output_limit_sandboxed() {
    if sandbox_confines() {
        flooding_checker(Mode::Auto);
    }
}

#[test]
fn flooding_checker_is_stopped_at_its_output_limit_without_sandbox() {
    flooding_checker(Mode::Off);
}

#[test]
fn checker_cannot_write_outside_its_folder() {
    if !sandbox_confines() {
        return;
    }
    let s = Setup::new(Mode::Auto, "", "x\n", "x\n");
    fs::write(s.path("outside.txt"), "original\n").expect("a file outside");
    let targets = [
        s.path("outside.txt"),
        s.path("new.txt"),
        // The judge's own copy of what is judged.
        s.path("answer"),
        // Another run's folder in the same working root.
        s.path("root/other.txt"),
    ];
    let listed: String = targets
        .iter()
        .map(|p| format!("{}\n", p.display()))
        .collect();
    fs::write(s.path("input"), listed).expect("the list of targets");
    let got = s.check(
        &icpc("write_outside.py"),
        "write_outside.py",
        Duration::from_secs(60),
    );
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    assert!(
        got.message
            .contains("exited with code 1 (expected 42 or 43): refused: "),
        "{}",
        got.message
    );
    let read = |name: &str| fs::read_to_string(s.path(name)).ok();
    assert_eq!(read("outside.txt").as_deref(), Some("original\n"));
    assert_eq!(read("new.txt"), None);
    assert_eq!(read("answer").as_deref(), Some("x\n"));
    assert_eq!(s.left_behind(), Vec::<String>::new());
}

fn feedback_files(mode: Mode) {
    let s = Setup::new(mode, "1\n", "lose\n", "lose\n");
    // Left by an earlier pass: carried in, appended to, carried out.
    fs::write(s.path("feedback/judgemessage.txt"), "pass 1\n").expect("old feedback");
    let got = s.check(
        &icpc("icpc_feedback.py"),
        "icpc_feedback.py",
        Duration::from_secs(60),
    );
    assert_eq!(got.verdict, CheckVerdict::Accepted, "{got:?}");
    assert_eq!(got.message, "pass 1 / judged 1 tokens");
    let read = |name: &str| fs::read_to_string(s.path("feedback").join(name)).ok();
    assert_eq!(
        read("judgemessage.txt").as_deref(),
        Some("pass 1\njudged 1 tokens\n")
    );
    assert_eq!(read("teammessage.txt").as_deref(), Some("well played\n"));
    assert_eq!(read("score.txt").as_deref(), Some("17\n"));
    assert_eq!(s.left_behind(), Vec::<String>::new());
}

#[test]
fn feedback_files_are_read_back_sandboxed() {
    if sandbox_confines() {
        feedback_files(Mode::Auto);
    }
}

#[test]
fn feedback_files_are_read_back_without_sandbox() {
    feedback_files(Mode::Off);
}
