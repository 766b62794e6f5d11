//! Progress of a batch run on stderr, drawn from the run's events.
//!
//! On a terminal: a bar of tests done out of tests planned, the verdicts so
//! far, the submissions running (student/problem and their tests), and the
//! time left. Elsewhere (a log, CI, a pipe): plain lines with no escape
//! codes, one per finished submission, each saying how far the run is.
//!
//! The time left is estimated from the work left ([`super::eta`]): `—`
//! until a test has ended. On a terminal it counts down as the bar is
//! redrawn.
//!
//! Names (students, contestants, files, problems) come from folders anyone
//! may name: they are printed escaped ([`crate::markup::terminal`]), so a
//! name cannot move the cursor, clear the screen or start a line of its own.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::eta::Eta;
use crate::batch::event::{Event, EventSink, Interrupted, Planned};
use crate::batch::model::{Item, Record};
use crate::markup::{count, terminal};
use crate::verdict::Verdict;

/// How many running submissions the bar names.
const RUNNING_SHOWN: usize = 2;

/// A submission being judged: its tests planned and done.
struct Running {
    tests: usize,
    done: usize,
}

/// The progress display: a consumer of batch events.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Where the plain lines go (stderr but in unit tests). Failing to
    /// write there is ignored: a closed stderr must not stop the grading.
    plain: Box<dyn Write + Send>,
    /// Submissions to judge in this run, and finished.
    total: usize,
    done: usize,
    /// Tests planned, and done (a finished submission counts all its
    /// planned tests, run or not).
    tests: usize,
    tests_done: usize,
    started: Option<Instant>,
    /// The estimate of the time left, shared with the bar's drawing.
    eta: Arc<Mutex<Option<Eta>>>,
    running: BTreeMap<Item, Running>,
    counts: BTreeMap<Verdict, usize>,
    not_judged: usize,
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

impl Progress {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub fn new() -> Progress {
        Progress::with_bar(std::io::stderr().is_terminal(), Box::new(io::stderr()))
    }

    /// Plain lines only, into `out`.
    pub fn plain(out: Box<dyn Write + Send>) -> Progress {
        Progress::with_bar(false, out)
    }

    fn with_bar(bar: bool, plain: Box<dyn Write + Send>) -> Progress {
        let eta: Arc<Mutex<Option<Eta>>> = Arc::new(Mutex::new(None));
        let bar = bar.then(|| {
            let shared = Arc::clone(&eta);
            // Drawn at every tick, so the time left counts down while a
            // long test runs.
            let left = move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "ETA {}", eta_text(&shared, Instant::now()));
            };
            let style = ProgressStyle::with_template(
                "{bar:30} {pos}/{len} tests  {msg}  {left}  [{elapsed}]",
            )
            .map(|s| s.with_key("left", left))
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr()).with_style(style)
        });
        Progress {
            bar,
            plain,
            total: 0,
            done: 0,
            tests: 0,
            tests_done: 0,
            started: None,
            eta,
            running: BTreeMap::new(),
            counts: BTreeMap::new(),
            not_judged: 0,
        }
    }

    /// A line for people, above the bar if there is one.
    fn line(&mut self, line: &str) {
        match &self.bar {
            // Before the plan the bar has nothing to show: not drawn yet.
            Some(b) if self.started.is_some() => b.println(line),
            Some(_) => eprintln!("{line}"),
            None => {
                let _ = writeln!(self.plain, "{line}");
            }
        }
    }

    fn started(&mut self, p: &Planned) {
        self.total = p.submissions - p.reused;
        self.tests = p.tests;
        for v in &p.reused_verdicts {
            *self.counts.entry(*v).or_default() += 1;
        }
        let now = Instant::now();
        self.started = Some(now);
        *self.eta.lock().unwrap_or_else(PoisonError::into_inner) = Some(Eta::new(now, &p.work));
        if let Some(b) = &self.bar {
            b.set_length(p.tests as u64);
            b.enable_steady_tick(Duration::from_millis(500));
        }
        if p.reused > 0 {
            self.line(&format!(
                "resuming: {} of {} already judged",
                p.reused,
                count(p.submissions, "submission", "submissions")
            ));
        }
        let (one, many) = p.people.words();
        self.line(&format!(
            "grundy: judging {} ({}) of {} on {}, {} at a time",
            count(self.total, "submission", "submissions"),
            count(p.tests, "test", "tests"),
            count(p.students, one, many),
            count(p.problems, "problem", "problems"),
            p.jobs
        ));
        self.redraw();
    }

    fn finished(&mut self, record: &Record) {
        self.done += 1;
        let item = Item {
            student: record.student.clone(),
            problem: record.problem.clone(),
            file: record.file.clone(),
            sha: record.sha.clone(),
        };
        if let Some(r) = self.running.remove(&item) {
            self.tests_done += r.tests.saturating_sub(r.done);
        }
        if let Some(eta) = self
            .eta
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            eta.finished(&item);
        }
        let width = self.total.to_string().len();
        let (student, problem, file) = (
            terminal(&record.student),
            terminal(record.problem.as_str()),
            terminal(&record.file),
        );
        let head = match (&record.result, &record.error) {
            (Some(r), _) => {
                *self.counts.entry(r.verdict).or_default() += 1;
                format!(
                    "[{:>width$}/{}] {:<3} {:>7}  {student} {problem} ({file})",
                    self.done,
                    self.total,
                    r.verdict.code(),
                    super::model::score_text(r.score)
                )
            }
            (None, why) => {
                self.not_judged += 1;
                format!(
                    "[{:>width$}/{}] not judged  {student} {problem} ({file}): {}",
                    self.done,
                    self.total,
                    terminal(why.as_deref().unwrap_or("no result"))
                )
            }
        };
        match &self.bar {
            Some(b) => {
                if record.result.is_none() {
                    b.println(&head);
                }
                self.redraw();
            }
            None => {
                let line = format!(
                    "{head}  tests {}/{}, ETA {}",
                    self.tests_done,
                    self.tests,
                    eta_text(&self.eta, Instant::now())
                );
                let _ = writeln!(self.plain, "{line}");
            }
        }
    }

    fn interrupted(&mut self, i: &Interrupted<'_>) {
        // Cleared first, so the message stays on the terminal.
        self.clear();
        let _ = writeln!(
            self.plain,
            "grundy: interrupted: {} of {} judged and kept in {}; run the same command with --resume to finish",
            i.kept,
            count(i.total, "submission", "submissions"),
            i.journal.display()
        );
    }

    fn redraw(&self) {
        let Some(b) = &self.bar else { return };
        b.set_position(self.tests_done as u64);
        let mut parts = vec![format!(
            "{}/{}",
            self.done,
            count(self.total, "submission", "submissions")
        )];
        let counts = self.counts_text();
        if !counts.is_empty() {
            parts.push(counts);
        }
        if !self.running.is_empty() {
            let mut names: Vec<String> = self
                .running
                .iter()
                .take(RUNNING_SHOWN)
                .map(|(item, r)| {
                    format!(
                        "{}/{} {}/{}",
                        terminal(&item.student),
                        terminal(item.problem.as_str()),
                        r.done,
                        r.tests
                    )
                })
                .collect();
            if self.running.len() > RUNNING_SHOWN {
                names.push(format!("+{} more", self.running.len() - RUNNING_SHOWN));
            }
            parts.push(format!("running {}", names.join(", ")));
        }
        b.set_message(parts.join(" · "));
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
    fn clear(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl EventSink for Progress {
    fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::Note(line) => self.line(&format!("grundy: {}", terminal(line))),
            Event::Started(p) => self.started(p),
            Event::SubmissionStarted { item, tests } => {
                if let Some(eta) = self
                    .eta
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .as_mut()
                {
                    eta.started(item, Instant::now());
                }
                self.running.insert(
                    (*item).clone(),
                    Running {
                        tests: *tests,
                        done: 0,
                    },
                );
                self.redraw();
            }
            Event::TestFinished { item, result } => {
                if let Some(eta) = self
                    .eta
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .as_mut()
                {
                    eta.test(item, result.wall, Instant::now());
                }
                if let Some(r) = self.running.get_mut(*item)
                    && r.done < r.tests
                {
                    r.done += 1;
                    self.tests_done += 1;
                    self.redraw();
                }
            }
            Event::SubmissionFinished { record } => self.finished(record),
            Event::Interrupted(i) => self.interrupted(i),
            Event::ClassFinished { .. } | Event::ContestFinished { .. } => self.clear(),
        }
        Ok(())
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The time left as shown: `—` until it is known.
fn eta_text(eta: &Mutex<Option<Eta>>, now: Instant) -> String {
    eta.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_mut()
        .and_then(|e| e.left(now))
        .map_or_else(|| "—".to_string(), duration_text)
}

/// `45s`, `3m 05s`, `2h 10m`: whole seconds, as a person reads a clock.
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn item(student: &str) -> Item {
        Item {
            student: student.into(),
            problem: crate::problem::ProblemId("nim".into()),
            file: format!("{student}/nim.py"),
            sha: "0".into(),
        }
    }

    #[test]
    fn plain_lines_name_each_finished_submission_and_the_tests_done() {
        use crate::judge::{SubmissionResult, TestResult};
        let out = Shared::default();
        let mut p = Progress::plain(Box::new(out.clone()));
        let planned = Planned {
            people: crate::batch::event::People::Students,
            students: 3,
            problems: 1,
            submissions: 3,
            reused: 1,
            reused_verdicts: vec![Verdict::AC],
            tests: 8,
            jobs: 1,
            work: ["ann", "ben"]
                .iter()
                .map(|s| crate::batch::event::PlannedWork {
                    item: item(s),
                    tests: 4,
                    wall_limit: Duration::from_secs(3),
                })
                .collect(),
        };
        let (ann, ben) = (item("ann"), item("ben"));
        let mut result = SubmissionResult::new(
            "ann/nim.py",
            &crate::problem::ProblemId("nim".into()),
            "python3",
        );
        result.verdict = Verdict::WA;
        result.score = 50.0;
        let test: TestResult = serde_json::from_value(serde_json::json!({
            "name": "t1", "group": "g", "verdict": "AC", "time_ms": 1.0, "wall_ms": 1.0,
            "memory_kib": 1, "message": ""
        }))
        .expect("a test result");
        let record = |i: &Item, result: Option<SubmissionResult>| Record {
            student: i.student.clone(),
            problem: i.problem.clone(),
            file: i.file.clone(),
            sha: i.sha.clone(),
            problem_key: String::new(),
            result,
            error: None,
            first_fail_input: None,
            smallest_failing_input: None,
        };
        let events = [
            Event::Note("preparing nim (tests and reference answers)"),
            Event::Started(&planned),
            Event::SubmissionStarted {
                item: &ann,
                tests: 4,
            },
            Event::TestFinished {
                item: &ann,
                result: &test,
            },
            Event::SubmissionFinished {
                record: &record(&ann, Some(result.clone())),
            },
            Event::SubmissionStarted {
                item: &ben,
                tests: 4,
            },
            Event::SubmissionFinished {
                record: &record(&ben, None),
            },
        ];
        for e in &events {
            p.event(e).expect("progress never fails");
        }
        let text = String::from_utf8(out.0.lock().expect("lock").clone()).expect("UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "grundy: preparing nim (tests and reference answers)",
                "resuming: 1 of 3 submissions already judged",
                "grundy: judging 2 submissions (8 tests) of 3 students on 1 problem, 1 at a time",
                "[1/2] WA       50  ann nim (ann/nim.py)  tests 4/8, ETA —",
                "[2/2] not judged  ben nim (ben/nim.py): no result  tests 8/8, ETA 0s",
            ],
            "the time left is known once judging has run a second, or nothing is left"
        );
        assert!(!text.contains('\x1b'), "no escape codes: {text:?}");
        assert_eq!(p.counts_text(), "AC 1, WA 1, not judged 1");
    }

    #[test]
    fn durations_read_like_a_clock() {
        let s = Duration::from_secs;
        assert_eq!(duration_text(s(45)), "45s");
        assert_eq!(duration_text(s(185)), "3m 05s");
        assert_eq!(duration_text(s(7800)), "2h 10m");
    }
}
