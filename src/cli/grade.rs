//! `grundy grade`: a class folder → gradebook, reports and feedback.

use std::path::PathBuf;

use grundy::batch::{self, Fanout, FeedbackLevel, GradeOptions, Shard};
use grundy::report::{Files, Progress};

use super::exit::Failure;
use super::{Global, batch_jobs, context, finish, problem_set};

#[allow(clippy::too_many_arguments)]
pub fn run(
    g: &Global,
    dir: PathBuf,
    problem: Option<String>,
    jobs_wanted: Option<usize>,
    out: PathBuf,
    resume: bool,
    shard: Option<Shard>,
    feedback: FeedbackLevel,
) -> Result<u8, Failure> {
    let opts = GradeOptions {
        dir,
        problem,
        jobs: batch_jobs(jobs_wanted),
        out,
        resume,
        shard,
        feedback,
    };
    let ctx = context(g)?;
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
