//! External checker programs (testlib and ICPC protocols), run for real.
//!
//! The checker programs are small Python 3 scripts in
//! `tests/fixtures/checkers/`, each misbehaving in one documented way,
//! staged where their runs can read them (see `common::checkers::Staged`).

mod common;

use std::ffi::OsString;
use std::fs;
use std::ops::Deref;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use common::checkers::{Staged, assert_gone, check_files, fixture, marker, write_files};
use grundy::check::{CheckCase, CheckOutcome, CheckVerdict, Checker, build, build_with_timeout};
use grundy::problem::CheckerSpec;
use tempfile::TempDir;

const TIMEOUT: Duration = Duration::from_secs(20);

/// A checker and the folder its script is staged in, which must outlive it.
struct Built {
    checker: Box<dyn Checker>,
    _staged: Staged,
}

impl Deref for Built {
    type Target = dyn Checker;
    fn deref(&self) -> &(dyn Checker + 'static) {
        &*self.checker
    }
}

fn testlib_spec(script: &str) -> CheckerSpec {
    CheckerSpec::Testlib(PathBuf::from(script))
}

fn icpc_spec(script: &str, args: &[&str]) -> CheckerSpec {
    CheckerSpec::Icpc {
        program: PathBuf::from(script),
        args: args.iter().map(|a| a.to_string()).collect(),
    }
}

/// `spec` run as `command`, with the default runner and [`TIMEOUT`].
fn built(spec: &CheckerSpec, command: Vec<OsString>) -> Box<dyn Checker> {
    build_with_timeout(spec, Some(command), TIMEOUT)
        .unwrap_or_else(|e| panic!("cannot build {spec:?}: {e}"))
}

fn staged(spec: &CheckerSpec, script: &str) -> Built {
    let staged = Staged::new();
    Built {
        checker: built(spec, staged.command(script)),
        _staged: staged,
    }
}

fn testlib(script: &str) -> Built {
    staged(&testlib_spec(script), script)
}

fn icpc(script: &str, args: &[&str]) -> Built {
    staged(&icpc_spec(script, args), script)
}

/// One test's files on disk, as the judge would lay them out.
struct Files {
    dir: TempDir,
}

impl Files {
    fn new(input: &str, output: &str, answer: &str) -> Files {
        let dir = match TempDir::new() {
            Ok(dir) => dir,
            Err(e) => panic!("cannot make a temporary folder: {e}"),
        };
        write_files(dir.path(), input, output, answer, "scratch");
        Files { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn check(&self, checker: &dyn Checker) -> CheckOutcome {
        check_files(checker, self.dir.path(), "scratch")
    }
}

fn outcome(checker: &dyn Checker, output: &str) -> CheckOutcome {
    Files::new("1\n", output, "unused\n").check(checker)
}

#[test]
fn testlib_checker_accepts_and_rejects() {
    let checker = testlib("testlib_tokens.py");
    let got = Files::new("3\n1 2 3\n", "Bob\r\n", "Bob\n").check(&*checker);
    assert_eq!(got.verdict, CheckVerdict::Accepted, "{got:?}");
    assert_eq!(got.message, "ok 1 tokens");
    let got = Files::new("3\n1 2 3\n", "Alice\n", "Bob\n").check(&*checker);
    assert_eq!(got.verdict, CheckVerdict::WrongAnswer, "{got:?}");
    assert_eq!(
        got.message,
        "wrong answer expected [b'Bob'], found [b'Alice']"
    );
    assert_eq!(got.diff, None);
}

#[test]
fn testlib_exit_codes_map_to_verdicts() {
    let checker = testlib("testlib_exit.py");
    let cases = [
        ("0 fine", CheckVerdict::Accepted, "fine"),
        (
            "1 wrong answer line 3",
            CheckVerdict::WrongAnswer,
            "wrong answer line 3",
        ),
        (
            "2 presentation error",
            CheckVerdict::PresentationError,
            "presentation error",
        ),
        (
            "3 cannot read answer",
            CheckVerdict::Failed,
            "reported a failure (exit code 3): cannot read answer",
        ),
        (
            "7 partial points",
            CheckVerdict::Failed,
            "exited with code 7 (expected 0, 1 or 2): partial points",
        ),
    ];
    for (output, verdict, message) in cases {
        let got = outcome(&*checker, output);
        assert_eq!(got.verdict, verdict, "{output}: {got:?}");
        assert!(got.message.ends_with(message), "{output}: {}", got.message);
    }
}

#[test]
fn testlib_message_falls_back_to_stdout_and_is_capped() {
    let checker = testlib("testlib_exit.py");
    let got = outcome(&*checker, "1 stdout said on stdout");
    assert_eq!(got.verdict, CheckVerdict::WrongAnswer);
    assert_eq!(got.message, "said on stdout");
    let long = format!("1 {}", "word ".repeat(1000));
    let got = outcome(&*checker, &long);
    assert!(got.message.len() <= 503, "{}", got.message.len());
    assert!(got.message.ends_with('…'));
}

#[test]
fn crashing_checker_fails_with_its_signal() {
    let got = outcome(&*testlib("crash.py"), "");
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    assert!(got.message.contains("crash.py"), "{}", got.message);
    assert!(
        got.message
            .ends_with("was killed by signal 11: about to crash"),
        "{}",
        got.message
    );
}

#[test]
fn flooding_checker_neither_blocks_nor_floods_the_message() {
    let got = outcome(&*testlib("flood.py"), "");
    assert_eq!(got.verdict, CheckVerdict::Accepted, "{:?}", got.verdict);
    assert!(got.message.len() <= 503, "{}", got.message.len());
}

#[test]
fn hanging_checker_is_killed_with_its_helpers() {
    let spec = CheckerSpec::Testlib(PathBuf::from("sleep_forever.py"));
    // The checker never finishes, so it is killed at whatever timeout; a
    // wide one lets Python start its helper first on a busy machine.
    let timeout = Duration::from_secs(10);
    let staged = Staged::new();
    let checker = build_with_timeout(&spec, Some(staged.command("sleep_forever.py")), timeout);
    let Ok(checker) = checker else {
        panic!("cannot build the checker")
    };
    // The helper carries this on its command line (see the fixture).
    let marker = marker("helper");
    let files = Files::new(&format!("{marker}\n"), "x\n", "x\n");
    let got = files.check(&*checker);
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    assert!(
        got.message
            .contains("did not finish within 10 s and was killed: helper started"),
        "{}",
        got.message
    );
    assert_gone(&marker);
}

#[test]
fn missing_program_fails_naming_it() {
    let spec = CheckerSpec::Testlib(PathBuf::from("nope"));
    let cmd = vec![OsString::from("/nonexistent/checker-binary")];
    let Ok(checker) = build(&spec, Some(cmd)) else {
        panic!("build should succeed; starting fails later")
    };
    let got = outcome(&*checker, "x");
    assert_eq!(got.verdict, CheckVerdict::Failed);
    assert!(
        got.message
            .starts_with("checker `/nonexistent/checker-binary` cannot be started: "),
        "{}",
        got.message
    );
}

#[test]
fn icpc_validator_accepts_with_judge_message() {
    let checker = icpc("icpc_validator.py", &[]);
    let files = Files::new("2\n1 1\n", "lose\n", "lose\n");
    let got = files.check(&*checker);
    assert_eq!(got.verdict, CheckVerdict::Accepted, "{got:?}");
    assert_eq!(got.message, "all 1 tokens match");
}

#[test]
fn icpc_validator_rejects_with_judge_message_and_gets_args() {
    let checker = icpc(
        "icpc_validator.py",
        &["case_sensitive", "space_change_sensitive"],
    );
    let files = Files::new("2\n1 2\n", "lose\n", "2 1\n");
    let got = files.check(&*checker);
    assert_eq!(got.verdict, CheckVerdict::WrongAnswer, "{got:?}");
    assert_eq!(
        got.message,
        "expected 2 1 / but got lose / args: case_sensitive space_change_sensitive"
    );
    assert!(files.path("scratch/judgemessage.txt").is_file());
}

#[test]
fn icpc_feedback_dir_is_created_when_missing() {
    let checker = icpc("icpc_validator.py", &[]);
    let files = Files::new("1\n", "x\n", "y\n");
    let (input, output, answer, feedback) = (
        files.path("input"),
        files.path("output"),
        files.path("answer"),
        files.path("feedback/deeper"),
    );
    let got = checker.check(&CheckCase {
        input: b"1\n",
        output: b"x\n",
        answer: b"y\n",
        input_path: &input,
        output_path: &output,
        answer_path: &answer,
        scratch: &feedback,
    });
    assert_eq!(got.verdict, CheckVerdict::WrongAnswer, "{got:?}");
    assert_eq!(got.message, "expected y / but got x");
}

#[test]
fn icpc_validator_with_other_exit_code_fails() {
    let got = outcome(&*icpc("icpc_zero.py", &[]), "x\n");
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    assert!(
        got.message
            .ends_with("exited with code 0 (expected 42 or 43): validator confused"),
        "{}",
        got.message
    );
}

#[test]
fn icpc_validator_without_output_file_fails() {
    let checker = icpc("icpc_validator.py", &[]);
    let files = Files::new("1\n", "x\n", "x\n");
    let missing = files.path("no-such-output");
    let (input, answer, scratch) = (
        files.path("input"),
        files.path("answer"),
        files.path("scratch"),
    );
    let got = checker.check(&CheckCase {
        input: b"1\n",
        output: b"",
        answer: b"x\n",
        input_path: &input,
        output_path: &missing,
        answer_path: &answer,
        scratch: &scratch,
    });
    assert_eq!(got.verdict, CheckVerdict::Failed);
    assert!(
        got.message.starts_with("cannot open the output file"),
        "{}",
        got.message
    );
}

#[test]
fn one_checker_serves_many_threads() {
    let checker = testlib("testlib_tokens.py");
    thread::scope(|scope| {
        let handles: Vec<_> = (0..6)
            .map(|i| {
                let checker = &checker;
                scope.spawn(move || {
                    let answer = format!("{i}\n");
                    let output = if i % 2 == 0 {
                        answer.clone()
                    } else {
                        "no\n".into()
                    };
                    let got = Files::new("1\n", &output, &answer).check(&**checker);
                    (i, got.verdict)
                })
            })
            .collect();
        for handle in handles {
            let Ok((i, verdict)) = handle.join() else {
                panic!("a checking thread panicked")
            };
            let want = if i % 2 == 0 {
                CheckVerdict::Accepted
            } else {
                CheckVerdict::WrongAnswer
            };
            assert_eq!(verdict, want, "thread {i}");
        }
    });
}

#[test]
fn external_specs_need_a_command() {
    let spec = CheckerSpec::Icpc {
        program: PathBuf::from("validator.py"),
        args: vec![],
    };
    let err = build(&spec, None).err().map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some("checker `validator.py` needs a compiled program, and none was given")
    );
}

/// A copy of checker `script` that no run can read, whoever the judge is:
/// in a folder of mode 0700 (a clone in `mktemp -d` or `/root`: runs as
/// root have a uid of their own) and itself of mode 0 (an ordinary user's
/// runs have the judge's uid).
fn locked(script: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new().unwrap_or_else(|e| panic!("cannot make a temporary folder: {e}"));
    let copy = dir.path().join(script);
    let locked = fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700))
        .and_then(|()| fs::copy(fixture(script), &copy))
        .and_then(|_| fs::set_permissions(&copy, fs::Permissions::from_mode(0o000)));
    if let Err(e) = locked {
        panic!("cannot lock away a copy of {script}: {e}");
    }
    (dir, copy)
}

/// Python's "can't open file" exits with 2, testlib's presentation
/// error: a checker whose file its run cannot read is the judge's failure
/// (`IE`), naming the file, and the checker is never started.
#[test]
fn testlib_checker_the_run_cannot_read_is_a_failure_naming_the_file() {
    let (_dir, script) = locked("testlib_tokens.py");
    let command = vec![OsString::from("python3"), script.clone().into_os_string()];
    let checker = built(&testlib_spec("testlib_tokens.py"), command);
    let got = Files::new("1\n", "Bob\n", "Alice\n").check(&*checker);
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    let want = format!(
        "cannot be started: the run cannot read {}: ",
        script.display()
    );
    assert!(got.message.contains(&want), "{}", got.message);
}

/// The same for an ICPC output validator, whose answers are 42 and 43:
/// its run's "can't open file" is no exit status of the validator's.
#[test]
fn icpc_validator_the_run_cannot_read_is_a_failure_naming_the_file() {
    let (_dir, script) = locked("icpc_validator.py");
    let command = vec![OsString::from("python3"), script.clone().into_os_string()];
    let checker = built(&icpc_spec("icpc_validator.py", &[]), command);
    let got = Files::new("1\n", "x\n", "x\n").check(&*checker);
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    let want = format!(
        "cannot be started: the run cannot read {}: ",
        script.display()
    );
    assert!(got.message.contains(&want), "{}", got.message);
}

/// A file of the checker's command that does not exist is named before
/// anything runs; one the judge cannot see (a path relative to the run's
/// folder) is caught by what the interpreter says, whatever its status.
#[test]
fn checker_whose_interpreter_cannot_open_it_is_a_failure() {
    let gone = Path::new("/nonexistent/grundy/checker.py");
    let command = vec![OsString::from("python3"), gone.as_os_str().to_owned()];
    let got = outcome(&*built(&testlib_spec("checker.py"), command), "x\n");
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    assert!(
        got.message.contains(&format!(
            "cannot be started: {} cannot be opened: ",
            gone.display()
        )),
        "{}",
        got.message
    );
    let command = vec![OsString::from("python3"), OsString::from("checker.py")];
    let got = outcome(&*built(&testlib_spec("checker.py"), command), "x\n");
    assert_eq!(got.verdict, CheckVerdict::Failed, "{got:?}");
    assert!(
        got.message.contains("could not start: ")
            && got.message.contains("can't open file '")
            && got.message.contains("/checker.py': [Errno 2]"),
        "{}",
        got.message
    );
}
