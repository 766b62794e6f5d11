//! Checkers: decide whether a program's output is right for a test.
//!
//! A checker sees bytes and files, never the submission's process: the judge
//! runs the submission, then hands its output here. A checker that misbehaves
//! (crashes, times out, answers nonsense) yields [`CheckVerdict::Failed`],
//! which the judge reports as `IE`, never as the submission's fault.

use std::ffi::OsString;
use std::path::Path;

use thiserror::Error;

use crate::spec::CheckerSpec;

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
    /// One line, e.g. "line 3, token 2: expected `Alice`, got `Bob`".
    pub message: String,
    /// A short, bounded diff window around the first difference, if useful.
    pub diff: Option<String>,
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
}

/// Why a checker could not be built from its spec.
#[derive(Debug, Error)]
pub enum CheckError {
    #[error("unknown game checker `{name}` (known: {known})")]
    UnknownGame { name: String, known: String },
    #[error("checker `{0}` needs a compiled program, and none was given")]
    MissingProgram(String),
}

/// Builds the checker a spec asks for. External checkers (testlib, ICPC) are
/// given `command`: the argv prefix that runs the compiled checker program.
pub fn build(
    spec: &CheckerSpec,
    command: Option<Vec<OsString>>,
) -> Result<Box<dyn Checker>, CheckError> {
    let _ = (spec, command);
    todo!("checkers are being written")
}
