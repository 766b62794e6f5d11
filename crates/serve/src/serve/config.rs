//! The served contest's file: `grundy contest`'s contest.yaml, extended
//! with what a live contest or a class needs (the clock, the freeze, who
//! takes part, the languages, the feedback, homework rules).
//!
//! ```yaml
//! title: Spring Nim Cup
//! scoring: icpc              # icpc (penalty minutes) or ioi (group points)
//! start: 2025-03-01T10:00:00Z   # or now, now+10m, now-1h
//! duration: 5h
//! freeze: 1h                 # the last hour: frozen for the public and the teams
//! penalty: 20                # ICPC: minutes per rejected try
//! problems: [nim, {id: wythoff, label: W}, {path: packages/inc}]
//! teams: [ana, {id: ben, name: Ben's team, group: europe}]   # or students: in a class
//! medals: {gold: 4, silver: 4, bronze: 4}     # the Contest API's awards (these are the defaults)
//! languages: [c, cpp, python, java, rust]     # default: all of them
//! feedback: verdict          # verdict, groups or first-fail
//! upload_limit: 256KiB
//! homework:                  # a class: deadlines per problem, no freeze
//!   count: best              # best or last
//!   late: refuse             # refuse, accept, or a share taken off: 25%
//! ```
//!
//! Values are checked as they are read, so that a wrong one is reported
//! with the file, line and column (as every YAML error is).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

pub use super::awards::Medals;
use super::clock::TimeSpec;
pub use super::homework::{Count, Homework, Late};
use super::homework::{HomeworkFile, late};
use super::place::{locate, locate_value};
use crate::batch::FeedbackLevel;
use crate::batch::contest::score::{ContestProblem, Scoring};
use crate::problem::ProblemId;
use crate::units::Bytes;
use crate::yaml::YamlError;

/// Why a contest file cannot be served: always the file's fault.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: cannot read: {source}", path = .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Yaml(#[from] YamlError),
}

/// A value of the file that does not read: the message (the place is
/// found by [`parse`]).
type Bad = String;

fn span(s: &str) -> Result<Duration, Bad> {
    super::clock::span(s).ok_or_else(|| format!("`{s}` is not a duration like 5h, 90m or 1h30m"))
}

fn when(s: &str) -> Result<TimeSpec, Bad> {
    TimeSpec::parse(s).ok_or_else(|| {
        format!("`{s}` is not a time like 2025-03-01T10:00:00Z, now, now+10m or now-1h")
    })
}

fn size(s: &str) -> Result<Bytes, Bad> {
    let b = crate::units::parse_bytes(s)
        .ok_or_else(|| format!("`{s}` is not a size like 256KiB or 1MiB"))?;
    if b.0 > 64 << 20 {
        return Err(format!("`{s}`: an upload limit must be at most 64MiB"));
    }
    Ok(b)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    title: Option<String>,
    #[serde(default)]
    scoring: Option<Scoring>,
    start: Option<String>,
    duration: Option<String>,
    freeze: Option<String>,
    penalty: Option<u32>,
    problems: Vec<ProblemEntry>,
    teams: Option<Vec<PersonEntry>>,
    students: Option<Vec<PersonEntry>>,
    /// `grundy contest`'s name for the list, read too.
    contestants: Option<Vec<PersonEntry>>,
    languages: Option<Vec<String>>,
    feedback: Option<String>,
    upload_limit: Option<String>,
    public_scoreboard: Option<bool>,
    homework: Option<HomeworkFile>,
    medals: Option<Medals>,
    /// `grundy contest`'s sources of submissions: allowed, and unused here.
    #[allow(dead_code)]
    log: Option<String>,
    #[allow(dead_code)]
    submissions: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ProblemEntry {
    Id(String),
    Full {
        id: Option<String>,
        /// A folder holding `problem.yaml` (a grundy spec or an ICPC
        /// package), from the contest file's folder.
        path: Option<String>,
        label: Option<String>,
        deadline: Option<String>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum PersonEntry {
    Id(String),
    Full {
        id: String,
        name: Option<String>,
        group: Option<String>,
    },
}

/// A problem of the served contest.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub id: ProblemId,
    pub label: String,
    /// Homework: after this, `late` applies.
    pub deadline: Option<TimeSpec>,
    /// Its folder, when the file gives one (else `id` in the problems
    /// folder).
    pub path: Option<PathBuf>,
}

/// A team or student named in the file (their accounts come from
/// `grundy serve accounts`).
#[derive(Debug, Clone, PartialEq)]
pub struct Person {
    pub login: String,
    pub name: String,
    /// Its group (the Contest API's `groups`), if any.
    pub group: Option<String>,
}

/// A loaded contest file.
#[derive(Debug, Clone)]
pub struct Config {
    pub path: PathBuf,
    pub title: String,
    pub scoring: Scoring,
    pub start: TimeSpec,
    pub duration: Option<Duration>,
    /// How long before the end the scoreboard freezes.
    pub freeze: Option<Duration>,
    pub penalty_minutes: u32,
    pub problems: Vec<Problem>,
    pub people: Vec<Person>,
    /// Language ids allowed; `None`: every language of the table.
    pub languages: Option<Vec<String>>,
    pub feedback: FeedbackLevel,
    pub upload_limit: Bytes,
    pub public_scoreboard: bool,
    pub homework: Option<Homework>,
    pub medals: Medals,
}

/// What a submission may weigh unless the file says otherwise.
pub const DEFAULT_UPLOAD_LIMIT: Bytes = Bytes(256 * 1024);

impl Config {
    /// The problems as the scoreboard lists them.
    pub fn contest_problems(&self) -> Vec<ContestProblem> {
        self.problems
            .iter()
            .map(|p| ContestProblem {
                id: p.id.clone(),
                label: p.label.clone(),
            })
            .collect()
    }

    pub fn problem(&self, id: &str) -> Option<&Problem> {
        self.problems.iter().find(|p| p.id == id)
    }

    /// The folder of the file: paths and the database start there.
    pub fn folder(&self) -> PathBuf {
        folder_of(&self.path)
    }
}

/// The folder of a file: its parent, or `.`.
fn folder_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Reads and checks a contest file; `languages` are the ids known.
pub fn load(path: &Path, known_languages: &[String]) -> Result<Config, ConfigError> {
    let text = crate::beneath::read_text(path, crate::beneath::TEXT_CAP).map_err(|source| {
        ConfigError::Read {
            path: path.to_path_buf(),
            source,
        }
    })?;
    parse(path, &text, known_languages)
}

/// [`load`] on the text of the file.
pub fn parse(path: &Path, text: &str, known_languages: &[String]) -> Result<Config, ConfigError> {
    let file: File = crate::yaml::from_str(path, text)?;
    let at = |needle: &str, nth: usize, message: String| -> ConfigError {
        let (line, column) = locate(text, needle, nth);
        ConfigError::Yaml(YamlError {
            path: path.to_path_buf(),
            line,
            column,
            message,
        })
    };
    // A value that does not read, placed at its text after its key.
    let value = |key: &str, v: &str, message: Bad| -> ConfigError {
        let (line, column) = locate_value(text, key, v);
        ConfigError::Yaml(YamlError {
            path: path.to_path_buf(),
            line,
            column,
            message: format!("{key}: {message}"),
        })
    };
    let start = file
        .start
        .as_deref()
        .map(|v| when(v).map_err(|m| value("start", v, m)))
        .transpose()?;
    let duration = file
        .duration
        .as_deref()
        .map(|v| span(v).map_err(|m| value("duration", v, m)))
        .transpose()?;
    let freeze = file
        .freeze
        .as_deref()
        .map(|v| span(v).map_err(|m| value("freeze", v, m)))
        .transpose()?;
    let upload_limit = file
        .upload_limit
        .as_deref()
        .map(|v| size(v).map_err(|m| value("upload_limit", v, m)))
        .transpose()?;
    let feedback = file
        .feedback
        .as_deref()
        .map(|v| {
            v.parse::<FeedbackLevel>()
                .map_err(|e| value("feedback", v, e.to_string()))
        })
        .transpose()?;
    let homework = match file.homework {
        Some(h) => Some(Homework {
            count: h.count,
            late: h
                .late
                .as_deref()
                .map(|v| late(v).map_err(|m| value("late", v, m)))
                .transpose()?
                .unwrap_or_default(),
        }),
        None => None,
    };
    if file.problems.is_empty() {
        return Err(at(
            "problems",
            0,
            "problems: list at least one problem id".into(),
        ));
    }
    let mut problems: Vec<Problem> = Vec::new();
    for (i, p) in file.problems.into_iter().enumerate() {
        let p = match p {
            ProblemEntry::Id(id) => Problem {
                id: ProblemId(id),
                label: letter(i),
                deadline: None,
                path: None,
            },
            ProblemEntry::Full {
                id,
                path: folder,
                label,
                deadline,
            } => {
                // A folder's problem is named by the folder unless told.
                let id = id.or_else(|| {
                    folder.as_deref().and_then(|f| {
                        Path::new(f)
                            .file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                    })
                });
                let Some(id) = id else {
                    return Err(at(
                        "problems",
                        0,
                        format!(
                            "problems: entry {} names no problem: give `id:` or `path:`",
                            i + 1
                        ),
                    ));
                };
                Problem {
                    label: label.unwrap_or_else(|| letter(i)),
                    deadline: deadline
                        .as_deref()
                        .map(|v| when(v).map_err(|m| value("deadline", v, m)))
                        .transpose()?,
                    path: folder.map(|f| folder_of(path).join(f)),
                    id: ProblemId(id),
                }
            }
        };
        if problems.iter().any(|q| q.id == p.id) {
            return Err(at(
                p.id.as_str(),
                1,
                format!("problems: `{}` is listed twice", p.id),
            ));
        }
        if let Some(q) = problems.iter().find(|q| q.label == p.label) {
            return Err(at(
                p.id.as_str(),
                0,
                format!(
                    "problems: `{}` and `{}` both have the label `{}`",
                    q.id, p.id, p.label
                ),
            ));
        }
        problems.push(p);
    }
    let lists = [
        ("teams", file.teams),
        ("students", file.students),
        ("contestants", file.contestants),
    ];
    let mut people: Vec<Person> = Vec::new();
    let mut given: Option<&str> = None;
    for (key, list) in lists {
        let Some(list) = list else { continue };
        if let Some(other) = given {
            return Err(at(
                key,
                0,
                format!("give one list of people: `{other}` or `{key}`, not both"),
            ));
        }
        given = Some(key);
        for entry in list {
            let person = match entry {
                PersonEntry::Id(id) => Person {
                    name: id.clone(),
                    login: id,
                    group: None,
                },
                PersonEntry::Full { id, name, group } => Person {
                    name: name.unwrap_or_else(|| id.clone()),
                    login: id,
                    group,
                },
            };
            if let Some(g) = &person.group
                && let Err(why) = super::awards::check_group(g)
            {
                return Err(value("group", g, why));
            }
            if let Err(why) = super::accounts::check_login(&person.login) {
                return Err(at(&person.login, 0, format!("{key}: {why}")));
            }
            if people.iter().any(|q| q.login == person.login) {
                return Err(at(
                    &person.login,
                    1,
                    format!("{key}: `{}` is listed twice", person.login),
                ));
            }
            people.push(person);
        }
    }
    if let Some(langs) = &file.languages {
        for l in langs {
            if !known_languages.contains(l) {
                return Err(at(
                    l,
                    0,
                    format!(
                        "languages: `{l}` is not a language id (known: {})",
                        known_languages.join(", ")
                    ),
                ));
            }
        }
    }
    if homework.is_some() && freeze.is_some() {
        return Err(at(
            "freeze",
            0,
            "freeze: a class (homework:) has no scoreboard to freeze".into(),
        ));
    }
    if homework.is_none() && problems.iter().any(|p| p.deadline.is_some()) {
        return Err(at(
            "deadline",
            0,
            "deadline: per-problem deadlines are for a class: add `homework:` (count, late)".into(),
        ));
    }
    if let (Some(f), Some(d)) = (freeze, duration)
        && f > d
    {
        return Err(at(
            "freeze",
            0,
            "freeze: longer than the contest's duration".into(),
        ));
    }
    if freeze.is_some() && duration.is_none() {
        return Err(at(
            "freeze",
            0,
            "freeze: counts back from the end: give the contest's `duration:` too".into(),
        ));
    }
    let scoring = file.scoring.unwrap_or(if homework.is_some() {
        Scoring::Ioi
    } else {
        Scoring::Icpc
    });
    Ok(Config {
        path: path.to_path_buf(),
        title: file.title.unwrap_or_else(|| "Contest".into()),
        scoring,
        start: start.unwrap_or(TimeSpec::FromNow(0)),
        duration,
        freeze,
        penalty_minutes: file.penalty.unwrap_or(20),
        problems,
        people,
        languages: file.languages,
        feedback: feedback.unwrap_or(if homework.is_some() {
            FeedbackLevel::Groups
        } else {
            FeedbackLevel::Verdict
        }),
        upload_limit: upload_limit.unwrap_or(DEFAULT_UPLOAD_LIMIT),
        public_scoreboard: file.public_scoreboard.unwrap_or(homework.is_none()),
        homework,
        medals: file.medals.unwrap_or_default(),
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

    fn langs() -> Vec<String> {
        ["c", "cpp", "python"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn parsed(text: &str) -> Result<Config, String> {
        parse(Path::new("dir/contest.yaml"), text, &langs()).map_err(|e| e.to_string())
    }

    #[test]
    fn a_full_file_reads() {
        let c = parsed(
            "title: Cup\nscoring: ioi\nstart: now+5m\nduration: 2h\nfreeze: 30m\n\
             problems: [nim, {id: wythoff, label: W}]\nteams: [ana, {id: ben, name: Ben B}]\n\
             languages: [c, python]\nfeedback: first-fail\nupload_limit: 64KiB\n",
        )
        .expect("reads");
        assert_eq!(c.scoring, Scoring::Ioi);
        assert_eq!(c.start, TimeSpec::FromNow(300_000));
        assert_eq!(c.freeze, Some(Duration::from_secs(1800)));
        assert_eq!(c.problems[1].label, "W");
        assert_eq!(c.people[1].name, "Ben B");
        assert_eq!(c.upload_limit, Bytes(64 * 1024));
        assert_eq!(c.feedback, FeedbackLevel::FirstFail);
        assert!(c.public_scoreboard);
    }

    #[test]
    fn a_problem_folder_is_found_from_the_file_and_named_by_its_folder() {
        let c =
            parsed("problems: [{path: pkgs/inc}, {id: w, path: /abs/wythoff}]\n").expect("reads");
        assert_eq!(c.problems[0].id, "inc");
        assert_eq!(c.problems[0].path, Some(PathBuf::from("dir/pkgs/inc")));
        assert_eq!(c.problems[1].id, "w");
        assert_eq!(c.problems[1].path, Some(PathBuf::from("/abs/wythoff")));
    }

    #[test]
    fn homework_reads_deadlines_and_late_rules() {
        let c = parsed(
            "problems: [{id: nim, deadline: now+1h}, {id: wythoff, deadline: 2025-03-01T10:00:00Z}]\n\
             students: [ana]\nhomework: {count: last, late: 25%}\n",
        )
        .expect("reads");
        let h = c.homework.expect("homework");
        assert_eq!(h.count, Count::Last);
        assert_eq!(h.late, Late::Penalty(0.25));
        assert_eq!(c.problems[0].deadline, Some(TimeSpec::FromNow(3_600_000)));
        assert_eq!(c.scoring, Scoring::Ioi);
        assert!(!c.public_scoreboard);
    }

    #[test]
    fn errors_name_the_file_line_and_column() {
        for (text, place, what) in [
            (
                "problems: [nim]\nstart: tomorrow\n",
                "dir/contest.yaml:2:",
                "tomorrow",
            ),
            (
                "problems: [nim]\nduration: 5 hours\n",
                "dir/contest.yaml:2:",
                "5 hours",
            ),
            (
                "problems: [nim, nim]\n",
                "dir/contest.yaml:1:17",
                "listed twice",
            ),
            (
                "problems: [nim]\nlanguages: [c, cobol]\n",
                "dir/contest.yaml:2:16",
                "cobol",
            ),
            (
                "problems: [nim]\nhomework: {late: sometimes}\n",
                "dir/contest.yaml:2:",
                "sometimes",
            ),
            (
                "problems: [nim]\nteams: [a, 'b c']\n",
                "dir/contest.yaml:2:",
                "b c",
            ),
            (
                "problems: [nim]\nfreeze: 1h\n",
                "dir/contest.yaml:2:1",
                "duration",
            ),
            (
                "problems: [nim]\ncolour: red\n",
                "dir/contest.yaml:2:",
                "colour",
            ),
            (
                "problems: [nim, {label: X}]\n",
                "dir/contest.yaml:1:1",
                "names no problem",
            ),
        ] {
            let e = parsed(text).expect_err(text);
            assert!(e.starts_with(place) && e.contains(what), "{text}: {e}");
        }
    }
}
