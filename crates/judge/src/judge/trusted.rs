//! Programs that belong to the problem (its reference, its generators): run
//! by the same runner as a submission, with limits no loaded machine can
//! break. Whatever goes wrong is the problem's failure, never a verdict.

use crate::sandbox::{Exit, LimitHit, RunOutcome, SandboxError};

/// How a trusted program ended, when it did not end cleanly.
#[derive(Debug, Clone, PartialEq)]
pub struct Failed {
    pub exit: Exit,
    /// The limit it is known by when it crossed any (`Crossed::first`).
    pub limit: Option<LimitHit>,
    /// The start of its stderr, trimmed.
    pub stderr: String,
}

impl Failed {
    /// `Some` unless the run exited with 0 within every limit.
    pub fn of(o: &RunOutcome, stderr: &str) -> Option<Failed> {
        (o.exit != Exit::Code(0) || o.crossed.any()).then(|| Failed {
            exit: o.exit,
            limit: o.crossed.first(),
            stderr: stderr.trim().to_string(),
        })
    }
}

/// Why a generator gave no test.
#[derive(Debug, thiserror::Error)]
pub enum GeneratorError {
    /// Its message is the judge error's whole chain: a generator's
    /// failure reaches the user as text (a generated test's error).
    #[error("{}", .0.message())]
    Compile(super::JudgeError),
    #[error("{0}")]
    Sandbox(#[from] SandboxError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("failed ({:?}, limit {:?}): {}", .0.exit, .0.limit, .0.stderr)]
    Failed(Failed),
    /// A file the generator left in its working folder could not be read.
    #[error("{file}: {source}")]
    Written {
        file: &'static str,
        source: std::io::Error,
    },
}

impl From<super::JudgeError> for GeneratorError {
    fn from(e: super::JudgeError) -> Self {
        GeneratorError::Compile(e)
    }
}

/// Why the reference gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    #[error("reference solution: {0}")]
    Sandbox(#[from] SandboxError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error(
        "reference solution failed on this test ({}; limit hit: {:?}) {}",
        match .0.exit {
            Exit::Code(c) => format!("exit code {c}"),
            Exit::Signal(s) => format!("signal {s}"),
        },
        .0.limit,
        .0.stderr
    )]
    Failed(Failed),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_read_as_before() {
        let f = Failed {
            exit: Exit::Code(1),
            limit: Some(LimitHit::Cpu),
            stderr: "boom".into(),
        };
        assert_eq!(
            ReferenceError::Failed(f.clone()).to_string(),
            "reference solution failed on this test (exit code 1; limit hit: Some(Cpu)) boom"
        );
        assert_eq!(
            GeneratorError::Failed(f).to_string(),
            "failed (Code(1), limit Some(Cpu)): boom"
        );
    }
}
