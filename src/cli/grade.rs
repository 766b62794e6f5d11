//! `grundy grade`: a class folder → gradebook, reports and feedback.

use std::path::PathBuf;

use grundy::batch::{self, FeedbackLevel, GradeOptions, Shard};

use super::exit::Failure;
use super::{Global, batch_jobs, context, finish, problem_set};

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
    let summary = batch::grade(&problem_set(g), &ctx, &opts)?;
    Ok(finish(&summary))
}
