//! `grundy grade`: a class folder → gradebook, reports and feedback.

use std::path::PathBuf;

use grundy::batch::{self, Fanout, FeedbackLevel, GradeOptions, Shard};
use grundy::report::{Files, Progress};

use super::exit::Failure;
use super::out::{batch_jobs, finish};
use super::{Global, context, hide, problem_set};

/// How to grade: the options that do not say what or where.
pub struct How {
    pub jobs: Option<usize>,
    pub resume: bool,
    pub shard: Option<Shard>,
    pub feedback: FeedbackLevel,
    pub all: bool,
}

pub fn run(
    g: &Global,
    dir: PathBuf,
    problem: Option<String>,
    out: PathBuf,
    how: How,
) -> Result<u8, Failure> {
    let opts = GradeOptions {
        dir,
        problem,
        jobs: batch_jobs(how.jobs),
        out,
        resume: how.resume,
        shard: how.shard,
        feedback: how.feedback,
        all: how.all,
    };
    let ctx = context(g)?;
    // Other students' submissions are no run's business.
    hide(&ctx, &opts.dir)?;
    // The run emits events; the progress display and the report files are
    // its consumers.
    let mut progress = Progress::new();
    let mut files = Files::default();
    let summary = batch::grade(
        &problem_set(g),
        &ctx,
        &opts,
        &mut Fanout(vec![&mut progress, &mut files]),
    )?;
    drop(progress);
    Ok(finish(&summary, &files))
}
