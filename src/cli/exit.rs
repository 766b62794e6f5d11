//! The exit codes of docs/reference.md, in one place: 0 all AC, 1 something not AC (or
//! not judged), 2 bad usage or bad spec/input, 3 internal error, 128 + the
//! signal for a batch run stopped by one.

use anyhow::anyhow;
use grundy::batch::BatchError;
use grundy::export::ExportError;
use grundy::judge::JudgeError;
use grundy::verdict::{Overall, Verdict};

pub const OK: u8 = 0;
pub const NOT_ACCEPTED: u8 = 1;
pub const USAGE: u8 = 2;
pub const INTERNAL: u8 = 3;

/// A failure with the exit code it deserves.
pub struct Failure {
    pub code: u8,
    pub error: anyhow::Error,
}

pub fn usage(error: anyhow::Error) -> Failure {
    Failure { code: USAGE, error }
}

pub fn internal(error: anyhow::Error) -> Failure {
    Failure {
        code: INTERNAL,
        error,
    }
}

impl From<JudgeError> for Failure {
    fn from(e: JudgeError) -> Self {
        match e {
            JudgeError::Problem(_) | JudgeError::Submission(_) | JudgeError::Usage(_) => {
                usage(anyhow!(e))
            }
            JudgeError::Io(_) => internal(anyhow!(e)),
        }
    }
}

impl From<BatchError> for Failure {
    fn from(e: BatchError) -> Self {
        match e {
            BatchError::Usage(_) => usage(anyhow!(e)),
            BatchError::Internal(_) => internal(anyhow!(e)),
            BatchError::Reporter(e) => internal(anyhow!(e)),
        }
    }
}

impl From<ExportError> for Failure {
    fn from(e: ExportError) -> Self {
        match e {
            ExportError::Usage(_) => usage(anyhow!(e)),
            ExportError::Io(_) => internal(anyhow!(e)),
        }
    }
}

/// The code of a finished run.
pub fn of(overall: Overall) -> u8 {
    match overall {
        Overall::Accepted => OK,
        Overall::Rejected => NOT_ACCEPTED,
        Overall::JudgeFailed => INTERNAL,
    }
}

/// The code of a set of verdicts, all judged.
pub fn of_verdicts(verdicts: impl IntoIterator<Item = Verdict>) -> u8 {
    of(Overall::of(verdicts, false))
}

/// The code of a run stopped by signal `sig`.
pub fn interrupted(sig: i32) -> u8 {
    128u8.saturating_add(u8::try_from(sig).unwrap_or(0))
}
