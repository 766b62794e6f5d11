//! What a batch run tells the world: one stream of typed events.
//!
//! `grade`, `merge` and `contest` never print and never write a report
//! themselves: they emit [`Event`]s to an [`EventSink`], and the CLI
//! attaches the consumers (the progress display on stderr, the report
//! files at the end). This is the shape of cargo-nextest's runner and
//! reporters: the event type is the whole interface between producing
//! results and showing them, so a new consumer needs no change here, and
//! the batch layer never imports `report`.
//!
//! Events arrive on the thread that called the command, in the order things
//! happened; a sink needs no locking. A sink that fails (a report file that
//! cannot be written) stops the run: no new submission starts, and the
//! command returns [`super::BatchError::Reporter`].

use std::io;
use std::path::Path;
use std::time::Duration;

use super::contest::score::{Attempt, Standings};
use super::model::{ClassReport, Issue, Item, Record};
use crate::judge::{SubmissionResult, TestResult};
use crate::verdict::Verdict;

/// Who hands in the submissions of a run, as its lines name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum People {
    /// A class (`grade`, `merge`).
    Students,
    /// A contest's contestants (teams or single people).
    Contestants,
}

impl People {
    /// The word for one and for several.
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            People::Students => ("student", "students"),
            People::Contestants => ("contestant", "contestants"),
        }
    }
}

/// One submission a run will judge, as its estimate of the time left
/// counts it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedWork {
    pub item: Item,
    /// Its tests.
    pub tests: usize,
    /// The wall-time limit of one of its runs (in its language): how long
    /// a test that sleeps may take.
    pub wall_limit: Duration,
}

/// What a run is about to judge, sent once before the first submission.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// Who the people of the run are.
    pub people: People,
    /// Students (or contestants) and problems of the whole run.
    pub students: usize,
    pub problems: usize,
    /// Distinct submissions this run owns (its shard's share), judged now
    /// or earlier.
    pub submissions: usize,
    /// Of those, the ones the journal already holds a result for.
    pub reused: usize,
    /// The verdicts of the reused ones, for a running count.
    pub reused_verdicts: Vec<Verdict>,
    /// Tests to run: the sum of the planned tests of each submission to judge.
    pub tests: usize,
    /// Submissions judged at once.
    pub jobs: usize,
    /// What is left to judge, submission by submission.
    pub work: Vec<PlannedWork>,
}

/// How an interrupted run left its output.
#[derive(Debug, Clone, PartialEq)]
pub struct Interrupted<'a> {
    pub signal: i32,
    /// Submissions with a result kept in the journal (this run's and the
    /// earlier ones).
    pub kept: usize,
    pub total: usize,
    pub journal: &'a Path,
}

/// A finished contest: what the scoreboard and its files are drawn from.
#[derive(Debug)]
pub struct ContestResults<'a> {
    pub standings: &'a Standings,
    /// Every counted, judged submission, in submission order.
    pub attempts: &'a [Attempt],
    /// Not counted, or not judged.
    pub issues: &'a [Issue],
    /// The full result of each attempt (same order), with the contestant
    /// and the time in seconds since the start.
    pub results: &'a [(&'a str, u64, &'a SubmissionResult)],
}

/// One thing that happened in a batch run.
#[derive(Debug)]
pub enum Event<'a> {
    /// A line for the person running the command: an issue found in the
    /// input, a journal line skipped, a problem being prepared.
    Note(&'a str),
    /// The plan, once the problems are prepared and before judging starts.
    Started(&'a Planned),
    /// A submission's judging began; `tests` is how many it may run.
    SubmissionStarted { item: &'a Item, tests: usize },
    /// One of its tests finished.
    TestFinished {
        item: &'a Item,
        result: &'a TestResult,
    },
    /// Its record is in the journal: a result, or why it was not judged.
    SubmissionFinished { record: &'a Record },
    /// A signal stopped the run; what is kept and where.
    Interrupted(&'a Interrupted<'a>),
    /// A class is complete (`grade` without a shard, `merge`): the reports
    /// are drawn from it into `out`.
    ClassFinished {
        out: &'a Path,
        class: &'a ClassReport,
    },
    /// A contest is complete: its scoreboard files go into `out`.
    ContestFinished {
        out: &'a Path,
        contest: &'a ContestResults<'a>,
    },
}

/// A consumer of batch events (the progress display, the report writers).
pub trait EventSink {
    /// Takes one event; an error stops the run.
    fn event(&mut self, event: &Event<'_>) -> io::Result<()>;
}

/// A sink that drops everything: for callers that want only the summary.
pub struct Quiet;

impl EventSink for Quiet {
    fn event(&mut self, _: &Event<'_>) -> io::Result<()> {
        Ok(())
    }
}

/// Several sinks fed in order; the first error stops the rest.
pub struct Fanout<'a>(pub Vec<&'a mut dyn EventSink>);

impl EventSink for Fanout<'_> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        for sink in &mut self.0 {
            sink.event(event)?;
        }
        Ok(())
    }
}
