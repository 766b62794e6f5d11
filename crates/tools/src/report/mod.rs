//! Reporters: turn judge events into what people read.
//!
//! The judge knows nothing of terminals or files; a reporter knows nothing
//! of how results are produced.

mod class_json;
mod class_page;
mod csv;
mod eta;
mod feedback;
mod files;
mod html;
mod junit;
mod progress;
mod replay;
mod scoreboard;
mod stable;
mod style;
mod terminal;
mod verdict_css;

/// The class model and contest standings are batch's data; the reporters
/// draw them under these names.
pub use crate::batch::contest::score as standings;
pub use crate::batch::model;

pub use class_json::class_json;
pub use class_page::{ClassStats, class_stats};
pub use csv::grades as grades_csv;
pub use feedback::{feedback, file_names as feedback_file_names};
pub use files::{Files, write_class, write_contest};
pub use html::{judge_report as judge_html_report, report as html_report};
pub use junit::junit;
pub use progress::Progress;
pub use scoreboard::{scoreboard_html, scoreboard_text};
pub use style::Style;
pub use terminal::Terminal;

use serde::Serialize;

use crate::judge::{Event, SubmissionResult};

/// The replay of a lost game (`judge --html`'s), for a page that embeds
/// it: the section, its styles and its script (an inline `<script>`).
pub fn replay_html(id: &str, game: &crate::games::play::Transcript) -> String {
    let mut h = String::new();
    replay::replay(&mut h, id, game);
    h
}
pub const REPLAY_CSS: &str = replay::CSS;
pub const REPLAY_SCRIPT: &str = replay::SCRIPT;

/// A line for the person running a batch command, on stderr: an issue
/// found in the input, a journal line skipped, a problem being prepared.
/// Library code says it through here so that only `report` and the CLI
/// print.
pub fn note(line: &str) {
    eprintln!("grundy: {line}");
}

/// Anything that consumes judge events.
pub trait Reporter {
    fn event(&mut self, event: &Event<'_>);
}

/// The `judge --json` object (docs/reference.md).
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub results: &'a [SubmissionResult],
}

/// Renders the `judge --json` object, pretty-printed.
pub fn json(results: &[SubmissionResult]) -> String {
    serde_json::to_string_pretty(&JsonReport { results })
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
