//! `grundy merge`: combine the outputs of `grade --shard` runs.

use std::path::PathBuf;

use grundy::batch::merge::{self, MergeOptions};
use grundy::batch::{Fanout, FeedbackLevel};
use grundy::report::{Files, Progress};

use super::exit::Failure;
use super::out::finish;

pub fn run(
    inputs: Vec<PathBuf>,
    out: PathBuf,
    feedback: Option<FeedbackLevel>,
) -> Result<u8, Failure> {
    let mut progress = Progress::new();
    let mut files = Files::default();
    let summary = merge::merge(
        &MergeOptions {
            inputs,
            out,
            feedback,
        },
        &mut Fanout(vec![&mut progress, &mut files]),
    )?;
    drop(progress);
    Ok(finish(&summary, &files))
}
