//! Results in the shape of SPEC.md's JSON report.

use serde::{Deserialize, Serialize};

use crate::generate::SAMPLE_GROUP;
use crate::spec::Problem;
use crate::verdict::Verdict;

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
    pub time_ms: f64,
    pub wall_ms: f64,
    pub memory_kib: u64,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub message: String,
    /// A short diff window around the first difference, for WA and PE.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
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
}

/// The result of one submission (one element of `results`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionResult {
    pub submission: String,
    pub problem: String,
    pub language: String,
    pub verdict: Verdict,
    pub score: f64,
    pub compile: CompileReport,
    pub tests: Vec<TestResult>,
    /// The isolation in force for the runs (see SECURITY.md).
    #[serde(default)]
    pub isolation: String,
    /// Set when the judge, not the submission, failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_error: Option<String>,
}

impl SubmissionResult {
    pub fn new(submission: &str, problem: &str, language: &str) -> Self {
        SubmissionResult {
            submission: submission.into(),
            problem: problem.into(),
            language: language.into(),
            verdict: Verdict::IE,
            score: 0.0,
            compile: CompileReport::default(),
            tests: Vec::new(),
            isolation: String::new(),
            internal_error: None,
        }
    }

    /// Sets the overall verdict and the score from the tests.
    pub fn finish(&mut self, problem: &Problem, compiled: bool) {
        self.verdict = if self.internal_error.is_some() {
            Verdict::IE
        } else if !compiled {
            Verdict::CE
        } else {
            Verdict::first_failure(self.tests.iter().map(|t| t.verdict))
        };
        self.score = if compiled {
            score(problem, &self.tests)
        } else {
            0.0
        };
    }
}

/// Points of the groups whose every test is AC, over all points, scaled to
/// 100. A group with no test in `tests` (not judged) earns nothing.
pub fn score(problem: &Problem, tests: &[TestResult]) -> f64 {
    let total: f64 = problem.groups.iter().map(|g| g.points).sum();
    if total <= 0.0 {
        let all_ac = !tests.is_empty() && tests.iter().all(|t| t.verdict == Verdict::AC);
        return if all_ac { 100.0 } else { 0.0 };
    }
    let earned: f64 = problem
        .groups
        .iter()
        .filter(|g| g.name != SAMPLE_GROUP)
        .filter(|g| {
            let mut in_group = tests.iter().filter(|t| t.group == g.name).peekable();
            in_group.peek().is_some() && in_group.all(|t| t.verdict == Verdict::AC)
        })
        .map(|g| g.points)
        .sum::<f64>()
        + 0.0; // an empty sum is -0.0
    (earned / total * 100.0 * 1000.0).round() / 1000.0
}
