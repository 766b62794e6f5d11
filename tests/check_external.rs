//! External checker programs (testlib and ICPC protocols), run for real.
//!
//! The checker programs are small Python 3 scripts in
//! `tests/fixtures/checkers/`, each misbehaving in one documented way.

mod common;

use std::ffi::OsString;
use std::path::PathBuf;
use std::thread;
use std::time::Duration;

use common::checkers::{assert_gone, check_files, command, marker, write_files};
use grundy::check::{CheckCase, CheckOutcome, CheckVerdict, Checker, build, build_with_timeout};
use grundy::spec::CheckerSpec;
use tempfile::TempDir;

const TIMEOUT: Duration = Duration::from_secs(20);

fn testlib(script: &str) -> Box<dyn Checker> {
    let spec = CheckerSpec::Testlib(PathBuf::from(script));
    match build_with_timeout(&spec, Some(command(script)), TIMEOUT) {
        Ok(checker) => checker,
        Err(e) => panic!("cannot build {script}: {e}"),
    }
}

fn icpc(script: &str, args: &[&str]) -> Box<dyn Checker> {
    let spec = CheckerSpec::Icpc {
        program: PathBuf::from(script),
        args: args.iter().map(|a| a.to_string()).collect(),
    };
    match build_with_timeout(&spec, Some(command(script)), TIMEOUT) {
        Ok(checker) => checker,
        Err(e) => panic!("cannot build {script}: {e}"),
    }
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
    let checker = build_with_timeout(&spec, Some(command("sleep_forever.py")), timeout);
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
