//! Reporters: turn judge events into what people read.
//!
//! The judge knows nothing of terminals or files; a reporter knows nothing
//! of how results are produced.

mod style;
mod terminal;

pub use style::Style;
pub use terminal::Terminal;

use serde::Serialize;

use crate::judge::{Event, SubmissionResult};

/// Anything that consumes judge events.
pub trait Reporter {
    fn event(&mut self, event: &Event<'_>);
}

/// SPEC.md's `judge --json` object.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub results: &'a [SubmissionResult],
}

/// Renders the `judge --json` object, pretty-printed.
pub fn json(results: &[SubmissionResult]) -> String {
    serde_json::to_string_pretty(&JsonReport { results })
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
