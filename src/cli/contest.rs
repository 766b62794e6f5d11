//! `grundy contest`: judge a local contest and print its scoreboard.

use super::out::{out, outln};
use std::path::PathBuf;

use grundy::batch::Fanout;
use grundy::batch::contest::{self, ContestOptions};
use grundy::report::{self, Style};

use super::exit::Failure;
use super::out::{batch_jobs, finish};
use super::{Global, context, hide, problem_set};

pub fn run(
    g: &Global,
    file: PathBuf,
    jobs_wanted: Option<usize>,
    out: PathBuf,
    resume: bool,
    all: bool,
) -> Result<u8, Failure> {
    let opts = ContestOptions {
        file,
        jobs: batch_jobs(jobs_wanted),
        out,
        resume,
        all,
    };
    let ctx = context(g)?;
    // The contest's folder holds every contestant's submissions.
    let folder = match opts.file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    hide(&ctx, folder)?;
    let mut progress = report::Progress::new();
    let mut files = report::Files::default();
    let run = contest::contest(
        &problem_set(g),
        &ctx,
        &opts,
        &mut Fanout(vec![&mut progress, &mut files]),
    )?;
    drop(progress);
    if let Some(standings) = &run.standings {
        out!("{}", report::scoreboard_text(standings, &Style::detect()));
        if !run.issues.is_empty() {
            outln!(
                "{} not counted or not judged (listed in submissions.json)",
                grundy::markup::count(run.issues.len(), "submission", "submissions")
            );
        }
    }
    Ok(finish(&run.summary, &files))
}
