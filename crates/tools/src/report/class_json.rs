//! `report.json` of a graded class: the `{"results": [...]}` of
//! docs/reference.md, with the
//! same per-submission objects as `judge --json`, each with a `student`
//! field, sorted by student then problem; plus the students, the problems
//! and the issues, so the file alone rebuilds every other report.
//!
//! This is the one grade report with measurements (`time_ms`, `wall_ms`,
//! `memory_kib`, and the figures in TLE and MLE messages): two runs agree
//! on every other field.

use serde::Serialize;

use super::model::{ClassReport, Issue, ProblemInfo};
use crate::judge::SubmissionResult;

#[derive(Serialize)]
struct Entry<'a> {
    student: &'a str,
    #[serde(flatten)]
    result: &'a SubmissionResult,
}

#[derive(Serialize)]
struct Class<'a> {
    results: Vec<Entry<'a>>,
    students: &'a [String],
    problems: &'a [ProblemInfo],
    issues: &'a [Issue],
    /// Files with the same content, judged once.
    identical: &'a [super::model::SameFiles],
    /// The class page's figures: score histograms and wrong ideas.
    class: super::class_page::ClassStats,
}

/// The pretty-printed JSON text.
pub fn class_json(class: &ClassReport) -> Result<String, serde_json::Error> {
    let doc = Class {
        results: class
            .graded
            .iter()
            .map(|g| Entry {
                student: &g.student,
                result: &g.result,
            })
            .collect(),
        students: &class.students,
        problems: &class.problems,
        issues: &class.issues,
        identical: &class.identical,
        class: super::class_page::class_stats(class),
    };
    serde_json::to_string_pretty(&doc).map(|mut s| {
        s.push('\n');
        s
    })
}
