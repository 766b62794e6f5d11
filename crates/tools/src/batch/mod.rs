//! Batch judging: `grundy grade` (a class folder → gradebook, reports and
//! feedback), `grundy merge` (shard outputs → the same reports) and
//! `grundy contest` (a local contest → a scoreboard).
//!
//! The pieces, in the order data flows through them:
//!
//! - [`walk`] finds the submissions and the trouble (issues) in a folder;
//! - [`model`] is the data: items, issues, the plan, journal records, the
//!   class view the reports are drawn from;
//! - [`shard`] picks a deterministic share of the items for one machine;
//! - [`journal`] keeps every result on disk the moment it exists;
//! - [`engine`] judges items on worker threads, feeding the journal;
//! - [`event`] is everything a run tells: the progress display and the
//!   report files (in `report`) are consumers of its events;
//! - [`interrupt`] turns Ctrl-C and SIGTERM into a clean stop;
//! - [`grade`], [`merge`] and [`contest`] put these together for each command,
//!   and [`output`] writes the plan atomically.
//!
//! The batch layer never starts a process itself: it calls the judge,
//! which calls the sandbox.

pub mod contest;
pub mod engine;
pub mod event;
pub mod grade;
pub mod interrupt;
pub mod journal;
pub mod merge;
pub mod model;
pub mod output;
pub mod shard;
pub mod walk;

use thiserror::Error;

pub use event::{Event, EventSink, Fanout, Quiet};
pub use grade::{GradeOptions, RunSummary, grade};
pub use model::{
    ClassReport, FeedbackLevel, Graded, GroupInfo, Issue, IssueKind, Item, Plan, ProblemInfo,
    Record, Shard, score_text,
};

use crate::judge::{Because, Chain, JudgeError};

/// Why a batch command stopped; each variant maps to an exit code of
/// docs/reference.md. `Usage` and `Internal` keep what was being done and the error
/// that stopped it ([`Because`]); the CLI prints them as one chain.
#[derive(Debug, Error)]
pub enum BatchError {
    /// Bad usage, or a bad input file or spec (exit 2).
    #[error(transparent)]
    Usage(Because),
    /// The judge itself failed: a file could not be written… (exit 3).
    #[error(transparent)]
    Internal(Because),
    /// A consumer of the run's events failed (a report file could not be
    /// written), which stopped the run (exit 3).
    #[error(transparent)]
    Reporter(std::io::Error),
}

impl BatchError {
    /// The whole message, context then cause, as the CLI prints it.
    pub fn message(&self) -> String {
        Chain(self).to_string()
    }
}

/// A problem, a submission or a request the judge refused is the batch's
/// usage error (exit 2); the judge's own failure stays internal (exit 3).
impl From<JudgeError> for BatchError {
    fn from(e: JudgeError) -> Self {
        match e {
            JudgeError::Problem(b) | JudgeError::Submission(b) | JudgeError::Usage(b) => {
                BatchError::Usage(b)
            }
            JudgeError::Io(b) => BatchError::Internal(b),
        }
    }
}

/// The number of tests run at once, and a note when the request was cut.
///
/// Timings are CPU time, which a run on its own core barely notices other
/// runs on other cores for; two runs on the two hardware threads of one
/// core, or more runs than cores, slow each other down (shared execution
/// units and caches, waiting for a CPU), and wall-time limits get closer.
/// So the default is one job per two logical CPUs (one per physical core
/// on machines with two threads per core, and leaving room for compilers
/// and the judge itself), at least 1; and never more jobs than logical CPUs.
pub fn jobs(requested: Option<usize>) -> (usize, Option<String>) {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    match requested {
        None => ((cpus / 2).max(1), None),
        Some(0) => ((cpus / 2).max(1), None),
        Some(n) if n > cpus => (
            cpus,
            Some(format!(
                "--jobs {n}: this machine has {cpus} CPUs; running {cpus} at once (more would make timings unfair)"
            )),
        ),
        Some(n) => (n, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_error_prints_its_context_then_its_cause() {
        let cause = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission denied");
        let e = BatchError::Usage(Because::of("out: cannot create the output folder", cause));
        assert_eq!(e.to_string(), "out: cannot create the output folder");
        assert_eq!(
            e.message(),
            "out: cannot create the output folder: permission denied"
        );
        // What the CLI prints for it.
        assert_eq!(
            format!("{:#}", anyhow::Error::from(e)),
            "out: cannot create the output folder: permission denied"
        );
    }

    #[test]
    fn a_judge_error_keeps_its_cause_and_its_exit_code_in_a_batch() {
        let judge = |e: JudgeError| BatchError::from(e);
        let io = std::io::Error::other("disk full");
        let internal = judge(JudgeError::Io(Because::of("cannot store a test input", io)));
        assert!(matches!(internal, BatchError::Internal(_)));
        assert_eq!(internal.message(), "cannot store a test input: disk full");
        let usage = judge(JudgeError::Problem(Because::new("p: no reference")));
        assert!(matches!(usage, BatchError::Usage(_)));
        assert_eq!(usage.message(), "p: no reference");
    }
}
