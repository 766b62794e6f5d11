//! Progress of a batch run on stderr, drawn from the run's events.
//!
//! On a terminal: a bar of tests done out of tests planned, the verdicts so
//! far, the submissions running (student/problem and their tests), and the
//! time left. Elsewhere (a log, CI, a pipe): plain lines with no escape
//! codes, one per finished submission, each saying how far the run is.
//!
//! The time left is estimated from the tests finished so far, and only once
//! there is enough of them for a rate to mean something: an estimate from
//! the first fast submission, or from one that has only begun timing out,
//! swings from seconds to weeks and helps nobody.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::batch::event::{Event, EventSink, Interrupted, Planned};
use crate::batch::model::{Item, Record};
use crate::verdict::Verdict;

/// The share of the planned tests that must be done before an ETA is shown.
const ETA_MIN_SHARE: f64 = 0.05;
/// And the time judging must have run.
const ETA_MIN_ELAPSED: Duration = Duration::from_secs(2);
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
    finished_any: bool,
    started: Option<Instant>,
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
        let bar = bar.then(|| {
            let style =
                ProgressStyle::with_template("{bar:30} {pos}/{len} tests  {msg}  [{elapsed}]")
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
            finished_any: false,
            started: None,
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
        self.started = Some(Instant::now());
        if let Some(b) = &self.bar {
            b.set_length(p.tests as u64);
            b.enable_steady_tick(Duration::from_millis(500));
        }
        if p.reused > 0 {
            self.line(&format!(
                "resuming: {} of {} submissions already judged",
                p.reused, p.submissions
            ));
        }
        self.line(&format!(
            "grundy: judging {} submissions ({} tests) of {} students on {} problems, {} at a time",
            self.total, p.tests, p.students, p.problems, p.jobs
        ));
        self.redraw();
    }

    fn finished(&mut self, record: &Record) {
        self.done += 1;
        self.finished_any = true;
        let item = Item {
            student: record.student.clone(),
            problem: record.problem.clone(),
            file: record.file.clone(),
            sha: record.sha.clone(),
        };
        if let Some(r) = self.running.remove(&item) {
            self.tests_done += r.tests.saturating_sub(r.done);
        }
        let width = self.total.to_string().len();
        let (student, problem, file) = (&record.student, &record.problem, &record.file);
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
                    why.as_deref().unwrap_or("no result")
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
                let mut line = format!("{head}  tests {}/{}", self.tests_done, self.tests);
                if let Some(eta) = self.eta() {
                    line.push_str(&format!(", ETA {}", duration_text(eta)));
                }
                let _ = writeln!(self.plain, "{line}");
            }
        }
    }

    fn interrupted(&mut self, i: &Interrupted<'_>) {
        // Cleared first, so the message stays on the terminal.
        self.clear();
        let _ = writeln!(
            self.plain,
            "grundy: interrupted: {} of {} submissions judged and kept in {}; run the same command with --resume to finish",
            i.kept,
            i.total,
            i.journal.display()
        );
    }

    /// The time left, once the tests done are enough to estimate from.
    fn eta(&self) -> Option<Duration> {
        let elapsed = self.started?.elapsed();
        if !self.finished_any {
            return None;
        }
        eta(elapsed, self.tests_done, self.tests)
    }

    fn redraw(&self) {
        let Some(b) = &self.bar else { return };
        b.set_position(self.tests_done as u64);
        let mut parts = vec![format!("{}/{} submissions", self.done, self.total)];
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
                    format!("{}/{} {}/{}", item.student, item.problem, r.done, r.tests)
                })
                .collect();
            if self.running.len() > RUNNING_SHOWN {
                names.push(format!("+{} more", self.running.len() - RUNNING_SHOWN));
            }
            parts.push(format!("running {}", names.join(", ")));
        }
        if let Some(eta) = self.eta() {
            parts.push(format!("ETA {}", duration_text(eta)));
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
            Event::Note(line) => self.line(&format!("grundy: {line}")),
            Event::Started(p) => self.started(p),
            Event::SubmissionStarted { item, tests } => {
                self.running.insert(
                    (*item).clone(),
                    Running {
                        tests: *tests,
                        done: 0,
                    },
                );
                self.redraw();
            }
            Event::TestFinished { item, .. } => {
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

/// The time left after `done` of `total` units of work took `elapsed`,
/// at the same rate; `None` until enough is done for the rate to mean
/// something.
pub fn eta(elapsed: Duration, done: usize, total: usize) -> Option<Duration> {
    if done == 0 || total == 0 || elapsed < ETA_MIN_ELAPSED {
        return None;
    }
    let share = done as f64 / total as f64;
    if share < ETA_MIN_SHARE {
        return None;
    }
    let left = total.saturating_sub(done) as f64;
    Some(Duration::from_secs_f64(
        elapsed.as_secs_f64() * left / done as f64,
    ))
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

    #[test]
    fn no_eta_until_enough_work_is_done() {
        let s = Duration::from_secs;
        assert_eq!(eta(s(10), 0, 100), None, "nothing done");
        assert_eq!(eta(s(10), 4, 100), None, "4 % is too little to go on");
        assert_eq!(eta(Duration::from_millis(500), 50, 100), None, "too soon");
        assert_eq!(eta(s(10), 5, 100), Some(s(190)));
        assert_eq!(eta(s(30), 50, 100), Some(s(30)));
        assert_eq!(eta(s(30), 100, 100), Some(s(0)));
    }

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
            problem: crate::spec::ProblemId("nim".into()),
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
            students: 3,
            problems: 1,
            submissions: 3,
            reused: 1,
            reused_verdicts: vec![Verdict::AC],
            tests: 8,
            jobs: 1,
        };
        let (ann, ben) = (item("ann"), item("ben"));
        let mut result = SubmissionResult::new(
            "ann/nim.py",
            &crate::spec::ProblemId("nim".into()),
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
                "grundy: judging 2 submissions (8 tests) of 3 students on 1 problems, 1 at a time",
                "[1/2] WA       50  ann nim (ann/nim.py)  tests 4/8",
                "[2/2] not judged  ben nim (ben/nim.py): no result  tests 8/8",
            ],
            "an ETA appears only after 2 s, which these events never take"
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
