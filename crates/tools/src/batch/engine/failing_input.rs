//! What a student's feedback shows of the first failing test's input:
//! its start, quoted, and a smaller input failing the same way.

use std::io::Read;
use std::path::Path;

use crate::judge::{Context, Prepared};
use crate::verdict::Verdict;

/// How much of a failing test's input a feedback file may quote.
const INPUT_BYTES: usize = 1000;
const INPUT_LINES: usize = 20;

/// Candidates judged while shrinking one submission's failing input.
const SHRINK_CANDIDATES: usize = 200;
/// A safety net only: the candidate count is what bounds shrinking.
const SHRINK_TIME: std::time::Duration = std::time::Duration::from_secs(60);

/// A smaller input than the first failing test's on which the submission
/// gets the same verdict, when the problem's input format is known.
///
/// Only wrong answers are shrunk, by a count of candidates: their verdicts
/// do not depend on the machine's load, so a resumed run finds the same
/// input again.
pub(super) fn smallest_failing_input(
    prepared: &Prepared,
    ctx: &Context,
    submission: &Path,
    result: &crate::judge::SubmissionResult,
) -> Option<String> {
    let failed = result.tests.iter().find(|t| t.verdict != Verdict::AC)?;
    if !matches!(failed.verdict, Verdict::WA | Verdict::PE) {
        return None;
    }
    let format = prepared.problem.input_format()?;
    let test = prepared.tests.iter().find(|p| p.name == failed.name)?;
    let input = std::fs::read_to_string(&test.input).ok()?;
    let runner = crate::stress::Runner::new(&prepared.problem, ctx, submission, 1, None);
    let shrunk = crate::stress::shrink_within(
        &runner,
        &format,
        &input,
        failed.verdict,
        SHRINK_TIME,
        Some(SHRINK_CANDIDATES),
    )
    .ok()?;
    (shrunk.steps > 0).then(|| quote_text(&shrunk.input))
}

/// The start of a test input, for a student to read.
pub fn quote_input(path: &Path) -> String {
    let mut buf = Vec::new();
    let total = std::fs::metadata(path).map_or(0, |m| m.len());
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(INPUT_BYTES as u64).read_to_end(&mut buf);
    }
    quote(&String::from_utf8_lossy(&buf), total)
}

/// The start of an input held in memory, cut like [`quote_input`].
fn quote_text(text: &str) -> String {
    let head: String = text.chars().take(INPUT_BYTES).collect();
    quote(&head, text.len() as u64)
}

/// At most `INPUT_LINES` lines of `head`, saying so when the whole
/// (`total` bytes) was longer.
fn quote(head: &str, total: u64) -> String {
    let mut lines: Vec<&str> = head.split_inclusive('\n').take(INPUT_LINES).collect();
    let shown: usize = lines.iter().map(|l| l.len()).sum();
    let mut out: String = lines.drain(..).collect();
    if (shown as u64) < total {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("[… cut: {total} bytes in all]\n"));
    }
    out
}
