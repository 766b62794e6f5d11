//! Results in the shape of the JSON report of docs/reference.md.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use crate::check::{Diff, DiffSide};
use crate::problem::{Problem, ProblemId};
use crate::sandbox::{Exit, RunOutcome};
use crate::units::Bytes;
use crate::verdict::decide::{Decision, Reason};
use crate::verdict::{Verdict, scoring};

/// The compile step of a submission.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompileReport {
    pub ok: bool,
    pub log: String,
}

/// The result of one test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    pub name: String,
    pub group: String,
    pub verdict: Verdict,
    /// CPU time, to 10 µs; `time_ms` in JSON.
    #[serde(rename = "time_ms", with = "millis")]
    pub time: Duration,
    /// Wall time, to 10 µs; `wall_ms` in JSON.
    #[serde(rename = "wall_ms", with = "millis")]
    pub wall: Duration,
    /// Peak memory, to the KiB; `memory_kib` in JSON.
    #[serde(rename = "memory_kib", with = "kib")]
    pub memory: Bytes,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub message: String,
    /// Why the run itself went wrong, when a limit or a crash decided the
    /// verdict: `message` quotes its text. Reports that must come out the
    /// same on every run quote it without the measured figures
    /// (`report::stable`). Not in the JSON
    /// report (docs/reference.md fixes its fields): a result read back from a
    /// journal has none (`report::stable` then reads the message).
    #[serde(skip)]
    pub reason: Option<Reason>,
    /// A short diff window around the first difference, for WA and PE.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<Diff>,
    /// The first lines of the program's stderr, when it failed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// Interactive problems: the game that failed, with its start position
    /// and every move (`games::play::Transcript`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<crate::games::play::Transcript>,
    /// Interactive problems: moves played in the run (both sides).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u64>,
    /// The share of its credit an accepted test earns, from an ICPC
    /// scoring package's output validator (`score.txt`,
    /// `score_multiplier.txt`); `None`: all of it. A group earns its
    /// points times the lowest share among its tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
}

/// A measured time as the JSON report writes it: milliseconds with two
/// decimals. Times are kept to 10 µs ([`TestResult::measured_time`]) so that
/// a result read back from a journal writes the same number.
mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_nanos() as f64 / 1e6)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let ms = f64::deserialize(d)?;
        let ns = (ms * 1e6).round();
        Ok(Duration::from_nanos(if ns.is_finite() && ns > 0.0 {
            ns as u64
        } else {
            0
        }))
    }
}

/// A peak memory as the JSON report writes it: KiB.
mod kib {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::units::Bytes;

    pub fn serialize<S: Serializer>(b: &Bytes, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(b.kib())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        Ok(Bytes(u64::deserialize(d)?.saturating_mul(1024)))
    }
}

impl TestResult {
    /// A test not judged yet: `IE` until a run says otherwise, so that any
    /// early return (unreadable answer, a run the judge could not start)
    /// is the judge's fault, never the submission's.
    pub fn unjudged(name: &str, group: &str) -> TestResult {
        TestResult {
            name: name.to_string(),
            group: group.to_string(),
            verdict: Verdict::IE,
            time: Duration::ZERO,
            wall: Duration::ZERO,
            memory: Bytes(0),
            exit_code: None,
            signal: None,
            message: String::new(),
            reason: None,
            diff: None,
            stderr: String::new(),
            game: None,
            moves: None,
            share: None,
        }
    }

    /// Copies what the sandbox measured of a run, rounded as reported.
    pub fn record_run(&mut self, o: &RunOutcome) {
        self.time = Self::measured_time(o.cpu);
        self.wall = Self::measured_time(o.wall);
        self.memory = Self::measured_memory(o.peak_memory);
        match o.exit {
            Exit::Code(c) => self.exit_code = Some(c),
            Exit::Signal(s) => self.signal = Some(s),
        }
    }

    /// A measured time as reported: to the nearest 10 µs.
    pub fn measured_time(d: Duration) -> Duration {
        let tens_of_us = (d.as_nanos() + 5_000) / 10_000;
        Duration::from_nanos(u64::try_from(tens_of_us * 10_000).unwrap_or(u64::MAX))
    }

    /// A measured memory as reported: whole KiB.
    pub fn measured_memory(b: Bytes) -> Bytes {
        Bytes(b.0 & !1023)
    }

    /// Sets the verdict and the message of a run that went wrong, keeping
    /// the reason itself for the reports that leave out measurements.
    pub fn decided_by_run(&mut self, d: Decision) {
        self.verdict = d.verdict;
        self.message = d.reason.to_string();
        self.reason = Some(d.reason);
    }

    /// Records a submission's run that did not happen: the submission's
    /// `RE` when [`crate::verdict::decide::not_run`] says so, else the
    /// judge's failure (`IE`, the verdict until set), its message `doing`
    /// then the error.
    pub fn not_run(&mut self, e: crate::sandbox::SandboxError, doing: &str) {
        match crate::verdict::decide::not_run(&e) {
            Some(d) => self.decided_by_run(d),
            None => self.message = format!("{doing}: {e}"),
        }
    }

    /// CPU time in milliseconds, as the JSON report writes it.
    pub fn time_ms(&self) -> f64 {
        self.time.as_nanos() as f64 / 1e6
    }
}

/// The protections in force for a submission's runs, by SECURITY.md's
/// names (`rlimits`, `process group`, …), in the order the sandbox applies
/// them. In JSON one string, the names joined by `, `, as the JSON report
/// has always written it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Isolation(pub Vec<String>);

impl Isolation {
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }
}

impl fmt::Display for Isolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(", "))
    }
}

impl Serialize for Isolation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Isolation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Isolation, D::Error> {
        let text = String::deserialize(d)?;
        Ok(Isolation(
            text.split(", ")
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect(),
        ))
    }
}

/// The result of one submission (one element of `results`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionResult {
    pub submission: String,
    pub problem: ProblemId,
    pub language: String,
    pub verdict: Verdict,
    pub score: f64,
    pub compile: CompileReport,
    pub tests: Vec<TestResult>,
    /// Tests not run because their group had already failed (docs/reference.md,
    /// "Tests that are not run"); they are not in `tests`.
    #[serde(default)]
    pub skipped: usize,
    /// The isolation in force for the runs (see SECURITY.md).
    #[serde(default)]
    pub isolation: Isolation,
    /// Set when the judge, not the submission, failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_error: Option<String>,
}

impl SubmissionResult {
    pub fn new(submission: &str, problem: &ProblemId, language: &str) -> Self {
        SubmissionResult {
            submission: submission.into(),
            problem: problem.clone(),
            language: language.into(),
            verdict: Verdict::IE,
            score: 0.0,
            compile: CompileReport::default(),
            tests: Vec::new(),
            skipped: 0,
            isolation: Isolation::default(),
            internal_error: None,
        }
    }

    /// The same result for a file of the same content submitted as `to`
    /// where it was `from` (file names): the messages that named the file
    /// name it so.
    pub fn rename_source(&mut self, from: &str, to: &str) {
        use crate::language::naming::replace_name;
        if from == to {
            return;
        }
        let rename = |text: &mut String| *text = replace_name(text, from, to);
        rename(&mut self.compile.log);
        if let Some(e) = &mut self.internal_error {
            rename(e);
        }
        for t in &mut self.tests {
            rename(&mut t.message);
            rename(&mut t.stderr);
            if let Some(Reason::Crash {
                first_stderr_line, ..
            }) = &mut t.reason
            {
                rename(first_stderr_line);
            }
        }
    }

    /// Sets the overall verdict and the score from the tests.
    pub fn finish(&mut self, problem: &Problem, compiled: bool) {
        self.verdict = scoring::submission_verdict(
            self.internal_error.is_some(),
            compiled,
            self.tests.iter().map(|t| t.verdict),
        );
        self.score = if compiled {
            score(problem, &self.tests)
        } else {
            0.0
        };
    }
}

/// The score of `tests` on `problem` ([`scoring::score`]).
pub fn score(problem: &Problem, tests: &[TestResult]) -> f64 {
    let groups: Vec<(&str, f64)> = problem
        .groups
        .iter()
        .map(|g| (g.name.as_str(), g.points))
        .collect();
    let tests: Vec<(&str, Verdict, f64)> = tests
        .iter()
        .map(|t| (t.group.as_str(), t.verdict, t.share.unwrap_or(1.0)))
        .collect();
    scoring::score_with_shares(&groups, &tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(time: Duration, memory: Bytes) -> TestResult {
        TestResult {
            name: "small-1".into(),
            group: "small".into(),
            verdict: Verdict::AC,
            time: TestResult::measured_time(time),
            wall: TestResult::measured_time(time * 3),
            memory: TestResult::measured_memory(memory),
            exit_code: Some(0),
            signal: None,
            message: String::new(),
            reason: None,
            diff: None,
            stderr: String::new(),
            game: None,
            moves: None,
            share: None,
        }
    }

    /// A diff is its text in JSON, and read back it marks the same lines as
    /// the window it was made from.
    #[test]
    fn a_diff_is_text_in_json_and_keeps_its_sides() {
        let text = "@@ -1,2 +1,2 @@ (- expected, + output)\n 1\n-2\n+3\n--4\n";
        let mut r = result(Duration::ZERO, Bytes(0));
        r.diff = Some(Diff::window(text.to_string()));
        let json = serde_json::to_string(&r).expect("serialises");
        assert!(
            json.contains(r#""diff":"@@ -1,2 +1,2 @@ (- expected, + output)\n 1\n-2\n+3\n--4\n""#),
            "{json}"
        );
        let back: TestResult = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back.diff, r.diff);
        let diff = back.diff.expect("a diff");
        assert_eq!(diff.text(), text);
        let sides: Vec<DiffSide> = diff.lines().map(|(s, _)| s).collect();
        use DiffSide::{Expected, Neither, Output};
        assert_eq!(sides, [Neither, Neither, Expected, Output, Expected]);
        let game = Diff::plain("game 1 of 1, start: 3\n-1 taken\n".to_string());
        assert!(game.lines().all(|(s, _)| s == Neither));
    }

    /// The isolation is a list inside and the same comma-joined string in
    /// JSON, read back to the same list (none: an empty string).
    #[test]
    fn isolation_is_a_list_written_as_one_string() {
        let id = ProblemId("nim".into());
        let mut r = SubmissionResult::new("a.c", &id, "c");
        r.isolation = Isolation(vec!["rlimits".into(), "process group".into()]);
        let json = serde_json::to_string(&r).expect("serialises");
        assert!(
            json.contains(r#""isolation":"rlimits, process group""#),
            "{json}"
        );
        let back: SubmissionResult = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back.isolation, r.isolation);
        r.isolation = Isolation::default();
        let json = serde_json::to_string(&r).expect("serialises");
        assert!(json.ends_with(r#""isolation":""}"#), "{json}");
        let back: SubmissionResult = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back.isolation.names().count(), 0);
    }

    /// The JSON keeps the report's `time_ms` / `wall_ms` (two decimals) and
    /// `memory_kib`, and a result read back (from a journal) writes the same
    /// text again.
    #[test]
    fn measurements_keep_their_json_shape_and_round_trip() {
        let r = result(Duration::from_nanos(1_157_600), Bytes(6_651_905));
        let text = serde_json::to_string(&r).expect("serialises");
        assert!(
            text.contains(r#""time_ms":1.16,"wall_ms":3.47,"memory_kib":6496,"#),
            "{text}"
        );
        let back: TestResult = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, r);
        assert_eq!(serde_json::to_string(&back).expect("serialises"), text);
        for ns in [0u64, 4_999, 5_000, 999_999_999, 12_345_678_901] {
            let r = result(Duration::from_nanos(ns), Bytes(ns));
            let text = serde_json::to_string(&r).expect("serialises");
            let back: TestResult = serde_json::from_str(&text).expect("reads back");
            assert_eq!(serde_json::to_string(&back).expect("serialises"), text);
        }
    }
}
