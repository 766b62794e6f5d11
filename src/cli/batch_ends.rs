//! The two ends of a batch command (`grade`, `contest`, `merge`): how many
//! tests run at once, and the closing lines and exit code.

use grundy::batch::{self, RunSummary};

use super::exit;
use super::out::outln;

/// The number of tests a batch command runs at once; a note when the
/// request was cut.
pub(super) fn batch_jobs(requested: Option<usize>) -> usize {
    let (n, note) = batch::jobs(requested);
    if let Some(note) = note {
        eprintln!("grundy: {note}");
    }
    n
}

/// Prints the closing lines of a batch command (what was judged, then the
/// files the report writers wrote); its exit code. An interrupted run has
/// said what it kept through its progress display.
pub(super) fn finish(summary: &RunSummary, files: &grundy::report::Files) -> u8 {
    match summary.interrupted {
        Some(sig) => {
            for l in &summary.lines {
                eprintln!("grundy: {}", grundy::markup::terminal(l));
            }
            exit::interrupted(sig)
        }
        None => {
            for l in summary.lines.iter().chain(&files.lines()) {
                outln!("{}", grundy::markup::terminal(l));
            }
            exit::of(summary.overall)
        }
    }
}
