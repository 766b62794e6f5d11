//! Progress of a batch run on stderr: a bar on a terminal (submissions
//! done, the verdicts so far, the time left), plain lines otherwise (one a
//! submission, for logs and CI).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::verdict::Verdict;

/// The progress of judging `total` submissions.
pub struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    done: usize,
    counts: BTreeMap<Verdict, usize>,
    not_judged: usize,
}

impl Progress {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub fn new(total: usize) -> Progress {
        Progress::with_bar(total, std::io::stderr().is_terminal())
    }

    pub fn with_bar(total: usize, bar: bool) -> Progress {
        let bar = bar.then(|| {
            let style =
                ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}  [{elapsed}, ETA {eta}]")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
            let b = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr())
                .with_style(style);
            b.enable_steady_tick(Duration::from_millis(500));
            b
        });
        Progress {
            bar,
            total,
            done: 0,
            counts: BTreeMap::new(),
            not_judged: 0,
        }
    }

    /// Verdicts already known (from the journal), counted in the summary.
    pub fn resumed(&mut self, verdicts: impl IntoIterator<Item = Verdict>) {
        for v in verdicts {
            *self.counts.entry(v).or_default() += 1;
        }
        self.update_message();
    }

    /// A line for people, above the bar if there is one.
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// One submission finished: its verdict and score, or why it was not judged.
    pub fn finished(
        &mut self,
        student: &str,
        problem: &str,
        file: &str,
        outcome: Result<(Verdict, f64), String>,
    ) {
        self.done += 1;
        let width = self.total.to_string().len();
        let line = match &outcome {
            Ok((v, score)) => {
                *self.counts.entry(*v).or_default() += 1;
                format!(
                    "[{:>width$}/{}] {:<3} {:>7}  {student} {problem} ({file})",
                    self.done,
                    self.total,
                    v.code(),
                    super::model::score_text(*score)
                )
            }
            Err(why) => {
                self.not_judged += 1;
                format!(
                    "[{:>width$}/{}] not judged  {student} {problem} ({file}): {why}",
                    self.done, self.total
                )
            }
        };
        match &self.bar {
            Some(b) => {
                if outcome.is_err() {
                    b.println(&line);
                }
                b.inc(1);
                self.update_message();
            }
            None => eprintln!("{line}"),
        }
    }

    fn update_message(&self) {
        if let Some(b) = &self.bar {
            b.set_message(self.counts_text());
        }
    }

    /// `AC 12, WA 3, TLE 1` (and the not judged, if any).
    pub fn counts_text(&self) -> String {
        let mut parts: Vec<String> = self
            .counts
            .iter()
            .map(|(v, n)| format!("{} {n}", v.code()))
            .collect();
        if self.not_judged > 0 {
            parts.push(format!("not judged {}", self.not_judged));
        }
        parts.join(", ")
    }

    /// Removes the bar; the summary is for the caller to print.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
