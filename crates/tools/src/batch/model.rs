//! The data a batch run produces and its reports consume: what was found
//! (items and issues), what was decided (records), and the class view the
//! reports are drawn from.
//!
//! Everything here is plain serialisable data, so that the journal, the
//! shard outputs and `grundy merge` all speak the same language.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::judge::SubmissionResult;
use crate::problem::ProblemId;

/// Version of `plan.json` and of the journal's records.
pub const FORMAT_VERSION: u32 = 1;

/// One submission to judge: who, which problem, which file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Item {
    pub student: String,
    pub problem: ProblemId,
    /// The path relative to the graded folder, with `/` separators: what
    /// the reports show, the same wherever the folder is mounted.
    pub file: String,
    /// SHA-256 of the file's bytes: a journal record is reused only for the
    /// same content.
    pub sha: String,
}

impl Item {
    /// What identifies a judging: the same student, problem and file content.
    pub fn key(&self) -> ItemKey {
        ItemKey {
            student: self.student.clone(),
            problem: self.problem.clone(),
            file: self.file.clone(),
            sha: self.sha.clone(),
        }
    }
}

/// The identity of an [`Item`], for maps.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ItemKey {
    pub student: String,
    pub problem: ProblemId,
    pub file: String,
    pub sha: String,
}

/// One line of the journal: the outcome of judging one item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub student: String,
    pub problem: ProblemId,
    pub file: String,
    pub sha: String,
    /// Fingerprint of the problem's tests when this was judged: a record is
    /// reused only while the tests are the same.
    pub problem_key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<SubmissionResult>,
    /// Why the item could not be judged (not a verdict: retried on resume).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The input of the first failing test, truncated, for feedback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_fail_input: Option<String>,
    /// A smaller input on which the submission fails the same way, found by
    /// shrinking the first failing one (`--feedback first-fail` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smallest_failing_input: Option<String>,
}

impl Record {
    pub fn key(&self) -> ItemKey {
        ItemKey {
            student: self.student.clone(),
            problem: self.problem.clone(),
            file: self.file.clone(),
            sha: self.sha.clone(),
        }
    }
}

/// What kind of trouble a file or folder is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IssueKind {
    /// The file cannot be read (permissions, I/O error, a symbolic link).
    Unreadable,
    /// No language has this extension.
    UnknownExtension,
    /// A student folder with nothing to judge in it.
    EmptyFolder,
    /// Two files for the same student and problem: neither is judged.
    Duplicate,
    /// A file or folder name that is not valid UTF-8.
    BadName,
    /// A file named after no known problem.
    UnknownProblem,
    /// A file where the layout expects none (e.g. at the top without --problem).
    Misplaced,
    /// The judge could not judge the file (see the message).
    NotJudged,
    /// A contest submission that does not count (late, unknown contestant…).
    NotCounted,
}

impl IssueKind {
    pub fn label(self) -> &'static str {
        match self {
            IssueKind::Unreadable => "unreadable",
            IssueKind::UnknownExtension => "unknown extension",
            IssueKind::EmptyFolder => "empty folder",
            IssueKind::Duplicate => "duplicate",
            IssueKind::BadName => "bad name",
            IssueKind::UnknownProblem => "unknown problem",
            IssueKind::Misplaced => "misplaced",
            IssueKind::NotJudged => "not judged",
            IssueKind::NotCounted => "not counted",
        }
    }
}

/// Something found while walking the folder that is reported, never fatal.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Issue {
    /// The file or folder, relative to the graded folder (lossy for bad names).
    pub path: String,
    pub kind: IssueKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub student: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<ProblemId>,
    pub message: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.path, self.kind.label(), self.message)
    }
}

/// How much a student's feedback file tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FeedbackLevel {
    /// The verdict and score of each problem.
    Verdict,
    /// Also which test groups passed and their points.
    #[default]
    Groups,
    /// Also the first failing test: its message, diff and input (truncated).
    FirstFail,
}

/// A `--feedback` level that is none of the three.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown feedback level `{0}` (expected verdict, groups or first-fail)")]
pub struct BadFeedbackLevel(pub String);

impl FromStr for FeedbackLevel {
    type Err = BadFeedbackLevel;
    fn from_str(s: &str) -> Result<Self, BadFeedbackLevel> {
        match s {
            "verdict" => Ok(FeedbackLevel::Verdict),
            "groups" => Ok(FeedbackLevel::Groups),
            "first-fail" => Ok(FeedbackLevel::FirstFail),
            _ => Err(BadFeedbackLevel(s.to_string())),
        }
    }
}

/// A problem as the reports need it: no spec, no tests, just names and points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProblemInfo {
    pub id: ProblemId,
    pub title: String,
    pub groups: Vec<GroupInfo>,
    /// The samples, public in the statement: feedback shows the one a
    /// submission failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<SampleInfo>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupInfo {
    pub name: String,
    pub points: f64,
    /// Tests in the group (0: not known, in a plan of an older grundy).
    #[serde(default)]
    pub tests: usize,
}

/// A sample test as the statement shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleInfo {
    /// The test's name (`sample-1`).
    pub name: String,
    pub input: String,
    pub output: String,
}

/// Which share of the work one machine judges: `index` of `count`, from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// Everything a run found before judging, written to `OUT/plan.json` so
/// that `grundy merge` can rebuild the reports without the folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub feedback: FeedbackLevel,
    pub students: Vec<String>,
    pub problems: Vec<ProblemInfo>,
    /// Every item of the class, not only this shard's.
    pub items: Vec<Item>,
    pub issues: Vec<Issue>,
}

/// A judged submission as the reports see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    pub student: String,
    pub result: SubmissionResult,
    pub first_fail_input: Option<String>,
    pub smallest_failing_input: Option<String>,
}

/// Judged files of one problem with the same content (and extension, so
/// the same language): judged once, and the result given to each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SameFiles {
    pub problem: ProblemId,
    /// Sorted.
    pub files: Vec<String>,
}

/// The whole class, sorted: what every grade report is drawn from.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassReport {
    pub students: Vec<String>,
    pub problems: Vec<ProblemInfo>,
    /// Sorted by student, then problem, then file.
    pub graded: Vec<Graded>,
    /// Sorted; includes the items that could not be judged.
    pub issues: Vec<Issue>,
    pub feedback: FeedbackLevel,
    /// Identical files, sorted by problem then first file.
    pub identical: Vec<SameFiles>,
}

impl ClassReport {
    /// Builds the class view from a plan and the latest record of each item.
    /// Items without a result become `not judged` issues.
    pub fn new(plan: &Plan, records: &BTreeMap<ItemKey, Record>) -> ClassReport {
        let mut graded = Vec::new();
        let mut issues = plan.issues.clone();
        let mut items = plan.items.clone();
        items.sort();
        let mut same: BTreeMap<(&ProblemId, &str, &str), Vec<String>> = BTreeMap::new();
        for item in &items {
            match records.get(&item.key()) {
                Some(Record {
                    result: Some(result),
                    first_fail_input,
                    smallest_failing_input,
                    ..
                }) => graded.push({
                    let ext = item.file.rsplit_once('.').map_or("", |(_, e)| e);
                    same.entry((&item.problem, item.sha.as_str(), ext))
                        .or_default()
                        .push(item.file.clone());
                    Graded {
                        student: item.student.clone(),
                        result: SubmissionResult {
                            submission: item.file.clone(),
                            ..result.clone()
                        },
                        first_fail_input: first_fail_input.clone(),
                        smallest_failing_input: smallest_failing_input.clone(),
                    }
                }),
                other => issues.push(Issue {
                    path: item.file.clone(),
                    kind: IssueKind::NotJudged,
                    student: Some(item.student.clone()),
                    problem: Some(item.problem.clone()),
                    message: other
                        .and_then(|r| r.error.clone())
                        .unwrap_or_else(|| "no result (run again with --resume)".into()),
                }),
            }
        }
        issues.sort();
        issues.dedup();
        let mut identical: Vec<SameFiles> = same
            .into_iter()
            .filter(|(_, files)| files.len() > 1)
            .map(|((problem, _, _), mut files)| {
                files.sort();
                SameFiles {
                    problem: problem.clone(),
                    files,
                }
            })
            .collect();
        identical.sort_by(|a, b| (&a.problem, &a.files).cmp(&(&b.problem, &b.files)));
        ClassReport {
            students: plan.students.clone(),
            problems: plan.problems.clone(),
            graded,
            issues,
            feedback: plan.feedback,
            identical,
        }
    }

    /// The submission of `student` for `problem`, if one was judged.
    pub fn cell(&self, student: &str, problem: &ProblemId) -> Option<&Graded> {
        self.graded
            .iter()
            .find(|g| g.student == student && &g.result.problem == problem)
    }

    /// A student's total: the sum of the scores of their judged submissions.
    pub fn total(&self, student: &str) -> f64 {
        self.graded
            .iter()
            .filter(|g| g.student == student)
            .map(|g| g.result.score)
            .sum::<f64>()
            + 0.0
    }

    /// The issues about one student.
    pub fn issues_of<'a>(&'a self, student: &'a str) -> impl Iterator<Item = &'a Issue> + 'a {
        self.issues
            .iter()
            .filter(move |i| i.student.as_deref() == Some(student))
    }
}

/// A score as people write it: `60`, `62.5`, `33.333`.
pub fn score_text(score: f64) -> String {
    let rounded = (score * 1000.0).round() / 1000.0 + 0.0;
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        let s = format!("{rounded:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_naturally() {
        assert_eq!(score_text(60.0), "60");
        assert_eq!(score_text(62.5), "62.5");
        assert_eq!(score_text(100.0 / 3.0), "33.333");
        assert_eq!(score_text(-0.0), "0");
    }

    #[test]
    fn feedback_levels_parse() {
        assert_eq!(
            "first-fail".parse::<FeedbackLevel>(),
            Ok(FeedbackLevel::FirstFail)
        );
        assert!("all".parse::<FeedbackLevel>().is_err());
    }
}
