//! The report files of a finished run, written when its last event comes:
//! a class's `report.json`, `grades.csv`, `junit.xml`, `report.html` and
//! feedback folder; a contest's scoreboard and submission files.
//!
//! Every file goes to a temporary name and is renamed into place, so an
//! interrupt while writing leaves the previous version or the new one,
//! never half a file.

use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::batch::contest::score::Attempt;
use crate::batch::event::{ContestResults, Event, EventSink};
use crate::batch::model::{ClassReport, Issue};
use crate::batch::output::atomic_write;
use crate::judge::SubmissionResult;

pub const REPORT_JSON: &str = "report.json";
pub const GRADES_CSV: &str = "grades.csv";
pub const JUNIT_XML: &str = "junit.xml";
pub const REPORT_HTML: &str = "report.html";
pub const FEEDBACK_DIR: &str = "feedback";
pub const SCOREBOARD_HTML: &str = "scoreboard.html";
pub const SCOREBOARD_JSON: &str = "scoreboard.json";
pub const SUBMISSIONS_JSON: &str = "submissions.json";

/// Writes the report files of whatever finishes, and remembers their paths
/// (the closing lines list them).
#[derive(Debug, Default)]
pub struct Files {
    pub written: Vec<PathBuf>,
}

impl EventSink for Files {
    fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::ClassFinished { out, class } => {
                self.written.extend(write_class(out, class)?);
            }
            Event::ContestFinished { out, contest } => {
                self.written.extend(write_contest(out, contest)?);
            }
            _ => {}
        }
        Ok(())
    }
}

impl Files {
    /// `  path` for each file written, in the order written.
    pub fn lines(&self) -> Vec<String> {
        self.written
            .iter()
            .map(|p| format!("  {}", p.display()))
            .collect()
    }
}

/// An I/O error that names the file.
fn cannot_write(path: &Path) -> impl Fn(io::Error) -> io::Error + '_ {
    move |e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
}

fn json_error(e: serde_json::Error) -> io::Error {
    io::Error::other(e.to_string())
}

/// Writes every report of a finished class into `out`; returns their paths.
pub fn write_class(out: &Path, class: &ClassReport) -> io::Result<Vec<PathBuf>> {
    let json = super::class_json(class).map_err(json_error)?;
    let files = [
        (REPORT_JSON, json),
        (GRADES_CSV, super::grades_csv(class)),
        (JUNIT_XML, super::junit(class)),
        (REPORT_HTML, super::html_report(class)),
    ];
    let mut written = Vec::new();
    for (name, text) in files {
        let path = out.join(name);
        atomic_write(&path, text.as_bytes()).map_err(cannot_write(&path))?;
        written.push(path);
    }
    written.push(write_feedback(out, class)?);
    Ok(written)
}

/// The feedback folder, replaced whole so no student's stale file stays.
fn write_feedback(out: &Path, class: &ClassReport) -> io::Result<PathBuf> {
    let fresh = out.join(".feedback-new");
    let old = out.join(".feedback-old");
    let dest = out.join(FEEDBACK_DIR);
    for leftover in [&fresh, &old] {
        if leftover.exists() {
            std::fs::remove_dir_all(leftover).map_err(cannot_write(leftover))?;
        }
    }
    std::fs::create_dir_all(&fresh).map_err(cannot_write(&fresh))?;
    let names = super::feedback_file_names(&class.students);
    for student in &class.students {
        let Some(name) = names.get(student) else {
            continue;
        };
        let path = fresh.join(name);
        std::fs::write(&path, super::feedback(class, student)).map_err(cannot_write(&path))?;
    }
    if dest.exists() {
        std::fs::rename(&dest, &old).map_err(cannot_write(&dest))?;
    }
    std::fs::rename(&fresh, &dest).map_err(cannot_write(&dest))?;
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(cannot_write(&old))?;
    }
    Ok(dest)
}

#[derive(Serialize)]
struct SubmissionsFile<'a> {
    submissions: &'a [Attempt],
    issues: &'a [Issue],
}

/// `report.json` of a contest: grade's format (the `{"results": [...]}` of
/// docs/reference.md,
/// each the object of `judge --json` with a `student` field), plus the
/// submission's `time` in seconds since the start, in submission order. It
/// holds what the scoreboard leaves out: every test, its message, the
/// compiler's log.
#[derive(Serialize)]
struct ContestReport<'a> {
    results: Vec<ReportEntry<'a>>,
}

#[derive(Serialize)]
struct ReportEntry<'a> {
    student: &'a str,
    time: u64,
    #[serde(flatten)]
    result: &'a SubmissionResult,
}

/// Writes a finished contest's scoreboard (HTML, JSON), its submissions
/// and its full report into `out`; returns their paths.
pub fn write_contest(out: &Path, contest: &ContestResults<'_>) -> io::Result<Vec<PathBuf>> {
    let html = super::scoreboard_html(contest.standings);
    let json = serde_json::to_string_pretty(contest.standings).map_err(json_error)?;
    let subs = serde_json::to_string_pretty(&SubmissionsFile {
        submissions: contest.attempts,
        issues: contest.issues,
    })
    .map_err(json_error)?;
    let results = contest
        .results
        .iter()
        .map(|&(student, time, result)| ReportEntry {
            student,
            time,
            result,
        })
        .collect();
    let report = serde_json::to_string_pretty(&ContestReport { results }).map_err(json_error)?;
    let mut written = Vec::new();
    for (name, text) in [
        (SCOREBOARD_HTML, html),
        (SCOREBOARD_JSON, json),
        (SUBMISSIONS_JSON, subs),
        (REPORT_JSON, report),
    ] {
        let path = out.join(name);
        atomic_write(&path, text.as_bytes()).map_err(cannot_write(&path))?;
        written.push(path);
    }
    Ok(written)
}
