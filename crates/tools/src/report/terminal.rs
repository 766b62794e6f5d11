//! The compact terminal view: one row of marks per group as tests finish,
//! then the failures with their messages and a diff, then one summary line.
//!
//! Everything quoted from a submission, a package or a file name (messages
//! with a program's stderr or a player's move, compiler output, test and
//! file names) goes through [`crate::markup::terminal`]: escaped, never
//! acted on by the terminal.

use std::io::Write;

use super::{Reporter, Style};
use crate::judge::{Event, SubmissionResult, TestResult};
use crate::markup::{terminal, terminal_lines};
use crate::verdict::Verdict;

/// How many failing tests are described in full.
const FAILURES_SHOWN: usize = 3;

/// Writes human-readable progress and results to a stream.
pub struct Terminal<W: Write> {
    out: W,
    style: Style,
    group: Option<String>,
}

impl<W: Write> Terminal<W> {
    pub fn new(out: W, style: Style) -> Self {
        Terminal {
            out,
            style,
            group: None,
        }
    }

    fn test(&mut self, t: &TestResult) {
        if self.group.as_deref() != Some(&t.group) {
            if self.group.is_some() {
                let _ = writeln!(self.out);
            }
            let _ = write!(self.out, "  {:<16} ", terminal(&t.group));
            self.group = Some(t.group.clone());
        }
        let _ = write!(self.out, "{}", self.style.mark(t.verdict));
        let _ = self.out.flush();
    }

    fn finished(&mut self, r: &SubmissionResult) {
        if self.group.take().is_some() {
            let _ = writeln!(self.out);
        }
        if !r.compile.ok {
            let _ = writeln!(self.out, "  {}", self.style.bold("compiler output:"));
            for line in r.compile.log.lines().take(30) {
                let _ = writeln!(self.out, "    {}", terminal(line));
            }
        }
        for t in r
            .tests
            .iter()
            .filter(|t| t.verdict != Verdict::AC)
            .take(FAILURES_SHOWN)
        {
            let _ = writeln!(
                self.out,
                "  {} {}: {}",
                self.style.verdict(t.verdict),
                terminal(&t.name),
                terminal_lines(&t.message).replace('\n', "\n    ")
            );
            if let Some(diff) = &t.diff {
                for line in diff.text().lines() {
                    let _ = writeln!(self.out, "      {}", self.style.dim(&terminal(line)));
                }
            }
        }
        let failed = r.tests.iter().filter(|t| t.verdict != Verdict::AC).count();
        if failed > FAILURES_SHOWN {
            let _ = writeln!(
                self.out,
                "  … and {} more failing tests",
                failed - FAILURES_SHOWN
            );
        }
        let max_time = r.tests.iter().map(|t| t.time_ms()).fold(0.0, f64::max);
        let max_mem = r.tests.iter().map(|t| t.memory.kib()).max().unwrap_or(0);
        let _ = writeln!(
            self.out,
            "{} {:>5.1}/100  {} on {}  {}",
            self.style.verdict(r.verdict),
            r.score,
            terminal(&r.submission),
            terminal(r.problem.as_str()),
            self.style.dim(&format!(
                "[{}{}, max {:.0} ms CPU, {:.1} MiB]",
                crate::markup::count(r.tests.len(), "test", "tests"),
                skipped_note(r.skipped),
                max_time,
                max_mem as f64 / 1024.0
            ))
        );
        if let Some(e) = &r.internal_error {
            let _ = writeln!(self.out, "  internal error: {}", terminal_lines(e));
        }
    }
}

/// `, 2 skipped` after the count of tests run, when some were not run.
fn skipped_note(skipped: usize) -> String {
    if skipped == 0 {
        String::new()
    } else {
        format!(", {skipped} skipped")
    }
}

impl<W: Write> Reporter for Terminal<W> {
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::Started {
                submission,
                problem,
                tests,
            } => {
                let _ = writeln!(
                    self.out,
                    "{} {} {}",
                    self.style.bold(&terminal(submission)),
                    self.style.dim("on"),
                    self.style.dim(&format!(
                        "{} ({})",
                        terminal(problem.as_str()),
                        crate::markup::count(*tests, "test", "tests")
                    ))
                );
            }
            Event::Compiled { .. } => {}
            Event::Test { result, .. } => self.test(result),
            Event::Finished { result } => self.finished(result),
        }
    }
}
