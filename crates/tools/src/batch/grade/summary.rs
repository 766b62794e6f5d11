//! What a class's reports say in words: each problem's names and points,
//! an issue's line, the class's overall verdict and the closing lines.

use std::collections::BTreeMap;

use crate::batch::model::{ClassReport, GroupInfo, ProblemInfo, SampleInfo};
use crate::problem::Problem;
use crate::verdict::Overall;

/// The names and points the reports need; with no points given, every
/// group weighs the same (as scoring does).
pub fn problem_info(p: &Problem) -> ProblemInfo {
    let points: Vec<f64> = p.groups.iter().map(|g| g.points).collect();
    ProblemInfo {
        id: p.id.clone(),
        title: p.title.clone(),
        groups: p
            .groups
            .iter()
            .zip(crate::verdict::scoring::weights(&points))
            .map(|(g, points)| GroupInfo {
                name: g.name.clone(),
                points,
                tests: g
                    .tests
                    .iter()
                    .map(|t| crate::generate::entry_count(t) as usize)
                    .sum(),
            })
            .collect(),
        samples: p
            .samples
            .iter()
            .enumerate()
            .map(|(i, s)| SampleInfo {
                name: format!("{}-{}", crate::generate::SAMPLE_GROUP, i + 1),
                input: s.input.clone(),
                output: s.output.clone(),
            })
            .collect(),
    }
}

pub fn issue_text(i: &crate::batch::Issue) -> String {
    format!("{}: {}", i.kind.label(), i.message)
}

/// How a class went: every graded verdict, and whether anything was left
/// unjudged (an issue).
pub fn class_overall(class: &ClassReport) -> Overall {
    Overall::of(
        class.graded.iter().map(|g| g.result.verdict),
        !class.issues.is_empty(),
    )
}

/// The closing line: what was graded (the report writers list their files).
pub fn describe(class: &ClassReport) -> String {
    use crate::markup::count;
    let mut counts = BTreeMap::new();
    for g in &class.graded {
        *counts.entry(g.result.verdict).or_insert(0) += 1;
    }
    let verdicts: Vec<String> = counts
        .iter()
        .map(|(v, n)| format!("{} {n}", v.code()))
        .collect();
    format!(
        "graded {} of {} on {}: {}{}",
        count(class.graded.len(), "submission", "submissions"),
        count(class.students.len(), "student", "students"),
        count(class.problems.len(), "problem", "problems"),
        if verdicts.is_empty() {
            "nothing judged".into()
        } else {
            verdicts.join(", ")
        },
        if class.issues.is_empty() {
            String::new()
        } else {
            format!(
                "; {} (listed in the reports)",
                count(class.issues.len(), "issue", "issues")
            )
        }
    )
}

/// Groups of identical files shown in the closing lines; more are in the
/// reports.
const IDENTICAL_SHOWN: usize = 10;

/// The closing lines about identical files: each group was judged once.
pub fn describe_identical(class: &ClassReport) -> Vec<String> {
    let mut out: Vec<String> = class
        .identical
        .iter()
        .take(IDENTICAL_SHOWN)
        .map(|same| {
            format!(
                "identical files, judged once: {} ({})",
                same.files
                    .iter()
                    .map(|f| crate::markup::terminal(f).into_owned())
                    .collect::<Vec<_>>()
                    .join(", "),
                same.problem
            )
        })
        .collect();
    if class.identical.len() > IDENTICAL_SHOWN {
        out.push(format!(
            "… and {} more groups of identical files (listed in report.html)",
            class.identical.len() - IDENTICAL_SHOWN
        ));
    }
    out
}
