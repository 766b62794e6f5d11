//! `grundy merge`: combine the outputs of `grade --shard` runs.

use std::path::PathBuf;

use grundy::batch::FeedbackLevel;
use grundy::batch::merge::{self, MergeOptions};

use super::exit::Failure;
use super::finish;

pub fn run(
    inputs: Vec<PathBuf>,
    out: PathBuf,
    feedback: Option<FeedbackLevel>,
) -> Result<u8, Failure> {
    let summary = merge::merge(&MergeOptions {
        inputs,
        out,
        feedback,
    })?;
    Ok(finish(&summary))
}
