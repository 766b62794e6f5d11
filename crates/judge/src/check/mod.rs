//! Checkers: decide whether a program's output is right for a test.
//!
//! A checker sees bytes and files, never the submission's process: the judge
//! runs the submission, then hands its output here. A checker that misbehaves
//! (crashes, times out, answers nonsense) yields [`CheckVerdict::Failed`],
//! which the judge reports as `IE`, never as the submission's fault.

mod diff;
mod exact;
mod external;
mod float;
mod game;
mod icpc_default;
mod scan;
mod tokens;

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use thiserror::Error;

use crate::problem::CheckerSpec;

pub use diff::{Diff, DiffSide};
pub use exact::ExactChecker;
pub use external::{
    CHECKER_MEMORY, CHECKER_OUTPUT, DEFAULT_TIMEOUT, ExternalChecker, MESSAGE_CAP, Runs,
};
pub use float::FloatChecker;
pub use game::{DescribedMoves, build_game, known_games};
pub use icpc_default::IcpcDefaultChecker;
pub use tokens::TokensChecker;

/// What a checker concluded about one output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckVerdict {
    Accepted,
    WrongAnswer,
    /// Only whitespace or layout differs, and the checker is strict about it.
    PresentationError,
    /// The checker itself failed; the judge reports `IE`.
    Failed,
}

/// A checker's verdict with a message a student can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOutcome {
    pub verdict: CheckVerdict,
    /// One line, e.g. `line 3, token 2: expected "Alice", got "Bob"`.
    pub message: String,
    /// A short, bounded diff window around the first difference, if useful.
    pub diff: Option<Diff>,
}

impl CheckOutcome {
    /// The outcome of a right output: nothing to say, nothing to show.
    pub fn accepted() -> CheckOutcome {
        CheckOutcome {
            verdict: CheckVerdict::Accepted,
            message: String::new(),
            diff: None,
        }
    }
}

/// One test as a checker sees it: contents in memory, and the same
/// contents as files for external checker programs.
pub struct CheckCase<'a> {
    pub input: &'a [u8],
    pub output: &'a [u8],
    pub answer: &'a [u8],
    pub input_path: &'a Path,
    pub output_path: &'a Path,
    pub answer_path: &'a Path,
    /// A private, empty folder the checker may write to (ICPC feedback dir).
    pub scratch: &'a Path,
}

/// Anything that can judge an output.
pub trait Checker: Send + Sync {
    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome;

    /// Whether `check` looks at the test's input; when it does not, the
    /// judge skips reading inputs of many megabytes on every test.
    fn reads_input(&self) -> bool {
        true
    }
}

/// Why a checker could not be built from its spec.
#[derive(Debug, Error)]
pub enum CheckError {
    #[error("unknown game checker `{name}` (known: {known})")]
    UnknownGame { name: String, known: String },
    #[error("checker `{0}` needs a compiled program, and none was given")]
    MissingProgram(String),
    #[error("float checker tolerances must be non-negative numbers (abs {abs}, rel {rel})")]
    BadTolerance { abs: f64, rel: f64 },
}

/// Builds the checker a spec asks for. External checkers (testlib, ICPC) are
/// given `command`: the argv prefix that runs the compiled checker program.
/// They may run for [`DEFAULT_TIMEOUT`]; see [`build_with_timeout`].
pub fn build(
    spec: &CheckerSpec,
    command: Option<Vec<OsString>>,
) -> Result<Box<dyn Checker>, CheckError> {
    build_with_timeout(spec, command, DEFAULT_TIMEOUT)
}

/// Like [`build`], with the time limit of one external checker run chosen
/// by the caller (tests, or a judge with unusually big outputs).
/// Built-in checkers ignore `timeout` and `command`.
pub fn build_with_timeout(
    spec: &CheckerSpec,
    command: Option<Vec<OsString>>,
    timeout: Duration,
) -> Result<Box<dyn Checker>, CheckError> {
    let runs = Runs {
        timeout,
        ..Runs::default()
    };
    build_with(spec, command, runs)
}

/// Like [`build`], with how and where external checker programs run: a
/// judge passes its own runner (`--sandbox`, cancellation) and working
/// root, so that checkers run like every other program it starts.
pub fn build_with(
    spec: &CheckerSpec,
    command: Option<Vec<OsString>>,
    runs: Runs,
) -> Result<Box<dyn Checker>, CheckError> {
    build_inner(spec, command, runs, false)
}

/// [`build_with`] for a problem's own checker program: its messages name
/// it by its file in the problem (`output_validators/check`), not by the
/// command that runs its compiled copy.
pub fn build_for_problem(
    spec: &CheckerSpec,
    command: Option<Vec<OsString>>,
    runs: Runs,
) -> Result<Box<dyn Checker>, CheckError> {
    build_inner(spec, command, runs, true)
}

fn build_inner(
    spec: &CheckerSpec,
    command: Option<Vec<OsString>>,
    runs: Runs,
    by_file: bool,
) -> Result<Box<dyn Checker>, CheckError> {
    let named = |c: ExternalChecker, path: &Path| if by_file { c.named_by(path) } else { c };
    Ok(match spec {
        CheckerSpec::Tokens => Box::new(TokensChecker),
        CheckerSpec::Exact => Box::new(ExactChecker),
        CheckerSpec::Float { abs, rel } => Box::new(FloatChecker::new(*abs, *rel).ok_or(
            CheckError::BadTolerance {
                abs: *abs,
                rel: *rel,
            },
        )?),
        CheckerSpec::Game(name) => build_game(name)?,
        CheckerSpec::IcpcDefault(flags) => Box::new(IcpcDefaultChecker::new(flags.clone()).ok_or(
            CheckError::BadTolerance {
                abs: flags.float_abs.unwrap_or(0.0),
                rel: flags.float_rel.unwrap_or(0.0),
            },
        )?),
        CheckerSpec::Testlib(path) => {
            let command = program(command, path)?;
            Box::new(named(ExternalChecker::testlib(command, runs), path))
        }
        CheckerSpec::Icpc {
            program: path,
            args,
        } => {
            let command = program(command, path)?;
            let args = args.iter().map(OsString::from).collect();
            Box::new(named(ExternalChecker::icpc(command, args, runs), path))
        }
    })
}

/// The command of an external checker, which must exist and be non-empty.
fn program(command: Option<Vec<OsString>>, path: &Path) -> Result<Vec<OsString>, CheckError> {
    command
        .filter(|c| !c.is_empty())
        .ok_or_else(|| CheckError::MissingProgram(path.display().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn case<'a>(input: &'a str, answer: &'a str, output: &'a str) -> CheckCase<'a> {
        let nowhere = Path::new("/nonexistent");
        CheckCase {
            input: input.as_bytes(),
            output: output.as_bytes(),
            answer: answer.as_bytes(),
            input_path: nowhere,
            output_path: nowhere,
            answer_path: nowhere,
            scratch: nowhere,
        }
    }

    fn verdict(spec: &CheckerSpec, answer: &str, output: &str) -> Option<CheckVerdict> {
        let checker = build(spec, None).ok()?;
        Some(checker.check(&case("", answer, output)).verdict)
    }

    #[test]
    fn builds_each_builtin_kind() {
        use CheckVerdict::*;
        assert_eq!(
            verdict(&CheckerSpec::Tokens, "a b\n", "a\nb"),
            Some(Accepted)
        );
        assert_eq!(
            verdict(&CheckerSpec::Exact, "a b\n", "a\nb"),
            Some(PresentationError)
        );
        let float = CheckerSpec::Float { abs: 0.1, rel: 0.0 };
        assert_eq!(verdict(&float, "1\n", "1.05\n"), Some(Accepted));
        assert_eq!(
            verdict(&CheckerSpec::Tokens, "1\n", "1.05\n"),
            Some(WrongAnswer)
        );
        let game = CheckerSpec::Game("nim-winning-move".into());
        let checker = build(&game, None).ok();
        let got = checker.map(|c| c.check(&case("2\n1 1\n", "lose\n", "lose\n")).verdict);
        assert_eq!(got, Some(Accepted));
    }

    #[test]
    fn reports_spec_problems() {
        let err = |spec: &CheckerSpec| build(spec, None).err().map(|e| e.to_string());
        assert_eq!(
            err(&CheckerSpec::Game("go".into())).as_deref(),
            Some("unknown game checker `go` (known: nim-winning-move)")
        );
        assert_eq!(
            err(&CheckerSpec::Testlib(PathBuf::from("check.cpp"))).as_deref(),
            Some("checker `check.cpp` needs a compiled program, and none was given")
        );
        let icpc = CheckerSpec::Icpc {
            program: PathBuf::from("v.py"),
            args: vec![],
        };
        assert!(matches!(
            build(&icpc, Some(vec![])),
            Err(CheckError::MissingProgram(_))
        ));
        let bad = CheckerSpec::Float {
            abs: -1.0,
            rel: 0.0,
        };
        assert!(matches!(
            build(&bad, None),
            Err(CheckError::BadTolerance { .. })
        ));
    }

    #[test]
    fn checkers_are_shareable_across_threads() {
        fn shareable<T: Send + Sync>(_: &T) {}
        if let Ok(checker) = build(&CheckerSpec::Tokens, None) {
            shareable(&checker);
        }
    }
}
