//! `contest.yaml`: the problems, the contestants, where the submissions
//! are, and how to score.
//!
//! ```yaml
//! title: Spring Nim Cup
//! scoring: icpc             # icpc (default) or ioi
//! start: 2025-03-01T10:00:00Z   # needed with clock times and file times
//! duration: 5h              # optional: later submissions do not count
//! penalty: 20               # ICPC: minutes per rejected try (default 20)
//! problems: [nim, wythoff]  # or [{id: nim, label: A}]
//! contestants: [ana, ben]   # optional; or [{id: ana, name: Ana Lee}]
//! log: submissions.csv      # time,contestant,problem,file
//! # or: submissions: subs/  # subs/<contestant>/<problem>.<ext>, or
//! #                         # subs/<contestant>/<problem>/<any>.<ext>; times from the files
//! ```
//!
//! Paths are relative to the folder of `contest.yaml`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

pub use super::score::{ContestProblem, Scoring};
use super::time;
use crate::batch::BatchError;
use crate::judge::Because;
use crate::problem::ProblemId;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    title: Option<String>,
    #[serde(default)]
    scoring: Scoring,
    start: Option<String>,
    duration: Option<String>,
    penalty: Option<u32>,
    problems: Vec<ProblemEntry>,
    contestants: Option<Vec<ContestantEntry>>,
    log: Option<String>,
    submissions: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ProblemEntry {
    Id(String),
    Full { id: String, label: Option<String> },
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ContestantEntry {
    Id(String),
    Full { id: String, name: Option<String> },
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Contestant {
    pub id: String,
    pub name: String,
}

/// Where the submissions and their times come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A CSV log: `time,contestant,problem,file`.
    Log(PathBuf),
    /// A folder; times are the files' modification times.
    Folder(PathBuf),
}

/// A loaded contest.
#[derive(Debug, Clone)]
pub struct Contest {
    pub title: String,
    pub scoring: Scoring,
    /// Unix seconds of the start, when given.
    pub start: Option<i64>,
    pub duration: Option<Duration>,
    pub penalty_minutes: u32,
    pub problems: Vec<ContestProblem>,
    /// `None`: whoever submitted.
    pub contestants: Option<Vec<Contestant>>,
    pub source: Source,
    /// The folder of contest.yaml: paths start here.
    pub base: PathBuf,
}

pub fn load(path: &Path) -> Result<Contest, BatchError> {
    let text = crate::beneath::read_text(path, crate::beneath::TEXT_CAP).map_err(|e| {
        BatchError::Usage(Because::of(format!("{}: cannot read", path.display()), e))
    })?;
    let file: File =
        crate::yaml::from_str(path, &text).map_err(|e| BatchError::Usage(Because::cause(e)))?;
    let bad = |msg: String| BatchError::Usage(Because::new(format!("{}: {msg}", path.display())));
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base
    };
    let source = match (&file.log, &file.submissions) {
        (Some(log), None) => Source::Log(base.join(log)),
        (None, Some(dir)) => Source::Folder(base.join(dir)),
        _ => {
            return Err(bad(
                "give exactly one of `log:` (a CSV time,contestant,problem,file) or `submissions:` (a folder)".into(),
            ))
        }
    };
    let start = match &file.start {
        Some(s) => Some(time::parse_clock(s).ok_or_else(|| {
            bad(format!(
                "start: `{s}` is not a date and time like 2025-03-01T10:00:00Z"
            ))
        })?),
        None => None,
    };
    let duration = match &file.duration {
        Some(d) => Some(time::parse_span(d).ok_or_else(|| {
            bad(format!(
                "duration: `{d}` is not a duration like 5h, 90m or 1h30m"
            ))
        })?),
        None => None,
    };
    if file.problems.is_empty() {
        return Err(bad("problems: list at least one problem id".into()));
    }
    let problems: Vec<ContestProblem> = file
        .problems
        .into_iter()
        .enumerate()
        .map(|(i, p)| match p {
            ProblemEntry::Id(id) => ContestProblem {
                id: ProblemId(id),
                label: letter(i),
            },
            ProblemEntry::Full { id, label } => ContestProblem {
                id: ProblemId(id),
                label: label.unwrap_or_else(|| letter(i)),
            },
        })
        .collect();
    for (i, p) in problems.iter().enumerate() {
        if problems[..i].iter().any(|q| q.id == p.id) {
            return Err(bad(format!("problems: `{}` is listed twice", p.id)));
        }
        // Two columns under one label would make the scoreboard ambiguous.
        if let Some(q) = problems[..i].iter().find(|q| q.label == p.label) {
            return Err(bad(format!(
                "problems: `{}` and `{}` both have the label `{}`",
                q.id, p.id, p.label
            )));
        }
    }
    let contestants = file.contestants.map(|list| {
        list.into_iter()
            .map(|c| match c {
                ContestantEntry::Id(id) => Contestant {
                    name: id.clone(),
                    id,
                },
                ContestantEntry::Full { id, name } => Contestant {
                    name: name.unwrap_or_else(|| id.clone()),
                    id,
                },
            })
            .collect::<Vec<Contestant>>()
    });
    // A contestant listed twice would be ranked twice with the same tries.
    if let Some(list) = &contestants {
        for (i, c) in list.iter().enumerate() {
            if list[..i].iter().any(|d| d.id == c.id) {
                return Err(bad(format!("contestants: `{}` is listed twice", c.id)));
            }
        }
    }
    Ok(Contest {
        title: file.title.unwrap_or_else(|| "Contest".into()),
        scoring: file.scoring,
        start,
        duration,
        penalty_minutes: file.penalty.unwrap_or(20),
        problems,
        contestants,
        source,
        base,
    })
}

/// A, B, …, Z, AA, AB, …
fn letter(i: usize) -> String {
    let mut n = i;
    let mut s = String::new();
    loop {
        s.insert(0, (b'A' + (n % 26) as u8) as char);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters() {
        assert_eq!(letter(0), "A");
        assert_eq!(letter(25), "Z");
        assert_eq!(letter(26), "AA");
    }

    #[test]
    fn duplicate_contestants_and_labels_are_refused() {
        let t = tempfile::tempdir().expect("tempdir");
        let p = t.path().join("contest.yaml");
        for (yaml, what) in [
            (
                "problems: [nim]\ncontestants: [ana, ben, ana]\nlog: x.csv\n",
                "`ana` is listed twice",
            ),
            (
                "problems: [nim, {id: wythoff, label: A}]\nlog: x.csv\n",
                "both have the label `A`",
            ),
        ] {
            std::fs::write(&p, yaml).expect("write");
            let e = load(&p).expect_err(what).to_string();
            assert!(e.contains(what) && e.contains("contest.yaml"), "{e}");
        }
        std::fs::write(
            &p,
            "problems: [nim, {id: wythoff, label: W}]\ncontestants: [ana, ben]\nlog: x.csv\n",
        )
        .expect("write");
        assert!(load(&p).is_ok());
    }

    #[test]
    fn errors_name_the_file_line_and_column() {
        let t = tempfile::tempdir().expect("tempdir");
        let p = t.path().join("contest.yaml");
        std::fs::write(&p, "problems: [nim]\nlog: x.csv\nscoring: speed\n").expect("write");
        let e = load(&p).expect_err("bad scoring").to_string();
        assert!(e.contains("contest.yaml:3:"), "{e}");
    }
}
