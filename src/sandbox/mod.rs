//! One run of one program under limits: the only place that starts
//! untrusted processes.
//!
//! The sandbox knows nothing of problems or verdicts. It takes a command, an
//! input file and limits, and reports what happened: how the program ended,
//! the CPU and wall time it used, its peak memory, how much it wrote, and
//! which limit (if any) stopped it. Turning that into `TLE` or `MLE` is the
//! judge's business.

mod limits;
mod process;
pub mod spawn;

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub use limits::RunLimits;
pub use process::{isolation_in_force, run};

use crate::spec::Bytes;

/// Everything needed to start one run.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// Program and arguments; `argv[0]` is looked up in `PATH` if it has no `/`.
    pub argv: Vec<OsString>,
    /// A fresh, private working folder.
    pub workdir: PathBuf,
    pub stdin: PathBuf,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
    /// The whole environment of the program: nothing of the judge's leaks in.
    pub env: Vec<(OsString, OsString)>,
    pub limits: RunLimits,
}

/// How the program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

/// Which limit the sandbox enforced by stopping the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
    Cpu,
    Wall,
    Memory,
    Output,
}

/// What happened in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub exit: Exit,
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_memory: Bytes,
    pub output_size: Bytes,
    /// Set when the sandbox itself stopped the program at a limit, or saw
    /// that a limit was crossed.
    pub limit: Option<LimitHit>,
    pub isolation: Isolation,
}

/// The isolation that was in force, for the report: a verdict is only as
/// trustworthy as the sandbox that produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Isolation {
    pub mechanisms: Vec<&'static str>,
}

impl fmt::Display for Isolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mechanisms.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&self.mechanisms.join(", "))
        }
    }
}

/// The sandbox could not start or watch the program (not the program's fault).
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot start `{program}`: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("cannot prepare the run ({what}): {source}")]
    Setup {
        what: String,
        source: std::io::Error,
    },
    #[error("lost track of the program: {0}")]
    Wait(std::io::Error),
}
