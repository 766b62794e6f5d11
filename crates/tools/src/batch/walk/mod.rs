//! Finding the submissions in a folder, in the layouts learning platforms
//! hand teachers:
//!
//! - one file per student, `DIR/alice.py`, all for the problem `--problem ID`;
//! - one folder per student, `DIR/alice/…`, holding one file per problem
//!   named after the problem id (`DIR/alice/nim.c`, `DIR/alice/hw/wythoff.py`);
//!   with `--problem ID` a student folder may instead hold a single source
//!   file of any name.
//!
//! Nothing found here is fatal: unreadable files, unknown extensions, empty
//! folders, two files for one student and problem, and names that are not
//! UTF-8 become [`Issue`]s that the reports list. Hidden files and folders
//! (a leading `.`, and `__MACOSX`) are skipped silently: archivers leave them.

mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

use super::model::{Issue, IssueKind, Item};
use crate::language::Languages;
use crate::problem::ProblemId;
pub use source::{SourceError, read_file_within, read_source, sha256};

/// How to read the folder.
pub struct Layout<'a> {
    /// `--problem ID`: every student submits this one problem.
    pub problem: Option<&'a str>,
    /// Whether a name is a problem id (folder layout without `--problem`).
    pub is_problem: &'a dyn Fn(&str) -> bool,
    pub languages: &'a Languages,
    /// A folder never to walk: the output folder, when it is inside `DIR`
    /// (`grundy grade .`), as a canonical path.
    pub skip: Option<PathBuf>,
}

/// What the walk found, sorted.
#[derive(Debug, Default)]
pub struct Walked {
    pub students: Vec<String>,
    pub items: Vec<Item>,
    pub issues: Vec<Issue>,
}

/// A file that may be a submission.
struct Candidate {
    student: String,
    problem: ProblemId,
    rel: String,
    path: PathBuf,
}

struct Walker<'a> {
    root: &'a Path,
    layout: &'a Layout<'a>,
    students: BTreeSet<String>,
    candidates: Vec<Candidate>,
    issues: Vec<Issue>,
}

/// Walks `dir`; fails only when `dir` itself cannot be read.
pub fn walk(dir: &Path, layout: &Layout<'_>) -> io::Result<Walked> {
    let mut w = Walker {
        root: dir,
        layout,
        students: BTreeSet::new(),
        candidates: Vec::new(),
        issues: Vec::new(),
    };
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if layout.skip.is_some() && path.canonicalize().ok() == layout.skip {
            continue;
        }
        let rel = w.rel(&path);
        let name = entry.file_name();
        if is_hidden(&name.to_string_lossy()) {
            continue;
        }
        let Some(name) = name.to_str().map(str::to_string) else {
            w.issue(
                &rel,
                IssueKind::BadName,
                None,
                None,
                "the name is not valid UTF-8: rename it".into(),
            );
            continue;
        };
        let kind = match std::fs::symlink_metadata(&path) {
            Ok(m) => m.file_type(),
            Err(e) => {
                w.issue(
                    &rel,
                    IssueKind::Unreadable,
                    None,
                    None,
                    format!("cannot read it: {e}"),
                );
                continue;
            }
        };
        if kind.is_dir() {
            w.student_folder(&name, &path);
        } else if let Some(id) = layout.problem {
            let student = stem(&name).to_string();
            w.students.insert(student.clone());
            w.file(&student, Some(id), &path, kind.is_symlink());
        } else {
            w.issue(
                &rel,
                IssueKind::Misplaced,
                None,
                None,
                "a file at the top of the folder: give --problem ID to grade one file per student, or put it in a student folder".into(),
            );
        }
    }
    Ok(w.finish())
}

impl Walker<'_> {
    fn rel(&self, path: &Path) -> String {
        let rel = path.strip_prefix(self.root).unwrap_or(path);
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")
    }

    fn issue(
        &mut self,
        rel: &str,
        kind: IssueKind,
        student: Option<&str>,
        problem: Option<&str>,
        message: String,
    ) {
        self.issues.push(Issue {
            path: rel.to_string(),
            kind,
            student: student.map(str::to_string),
            problem: problem.map(|p| ProblemId(p.to_string())),
            message,
        });
    }

    /// A student's folder: every file in it, at any depth.
    fn student_folder(&mut self, student: &str, folder: &Path) {
        self.students.insert(student.to_string());
        let rel_folder = self.rel(folder);
        let mut seen = 0;
        let mut walker = walkdir::WalkDir::new(folder)
            .min_depth(1)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !is_hidden(&e.file_name().to_string_lossy()));
        let mut files = Vec::new();
        // A folder named after a problem is one submission of several
        // files (`alice/nim/main.cpp` with `alice/nim/util.h`).
        let names_problem = |name: &str| match self.layout.problem {
            Some(id) => name.eq_ignore_ascii_case(id),
            None => {
                (self.layout.is_problem)(name) || (self.layout.is_problem)(&name.to_lowercase())
            }
        };
        while let Some(entry) = walker.next() {
            match entry {
                Ok(e)
                    if e.file_type().is_dir()
                        && e.file_name().to_str().is_some_and(names_problem) =>
                {
                    files.push((e.path().to_path_buf(), false));
                    walker.skip_current_dir();
                }
                Ok(e) if e.file_type().is_dir() => {}
                Ok(e) => files.push((e.path().to_path_buf(), e.path_is_symlink())),
                Err(e) => {
                    let path = e
                        .path()
                        .map(|p| self.rel(p))
                        .unwrap_or_else(|| rel_folder.clone());
                    self.issue(
                        &path,
                        IssueKind::Unreadable,
                        Some(student),
                        None,
                        format!("cannot read it: {e}"),
                    );
                    seen += 1;
                }
            }
        }
        for (path, symlink) in &files {
            seen += 1;
            // With --problem, the files of other problems are not this
            // problem's submission: leave them for their own run.
            let other_problem = |id: &str| {
                path.file_name()
                    .and_then(|n| n.to_str())
                    .map(|n| stem(n).to_lowercase())
                    .is_some_and(|s| s != id.to_lowercase() && (self.layout.is_problem)(&s))
            };
            match self.layout.problem {
                Some(id) if other_problem(id) => {}
                Some(id) => self.file(student, Some(id), path, *symlink),
                None => self.file(student, None, path, *symlink),
            }
        }
        if seen == 0 {
            self.issue(
                &rel_folder,
                IssueKind::EmptyFolder,
                Some(student),
                None,
                "nothing to judge in this student's folder".into(),
            );
        }
    }

    /// One file of `student`; `problem` is `--problem`, if given.
    fn file(&mut self, student: &str, problem: Option<&str>, path: &Path, symlink: bool) {
        let rel = self.rel(path);
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            self.issue(
                &rel,
                IssueKind::BadName,
                Some(student),
                problem,
                "the name is not valid UTF-8: rename it".into(),
            );
            return;
        };
        if symlink {
            self.issue(
                &rel,
                IssueKind::Unreadable,
                Some(student),
                problem,
                "a symbolic link, not followed: put the file itself there".into(),
            );
            return;
        }
        if self.layout.languages.detect(path).is_err() {
            let ext = path
                .extension()
                .map(|e| format!(".{}", e.to_string_lossy()))
                .unwrap_or_else(|| "none".into());
            let known = self
                .layout
                .languages
                .table
                .iter()
                .flat_map(|l| l.extensions.iter().map(|e| format!(".{e}")))
                .collect::<Vec<_>>()
                .join(" ");
            // A file named after a problem is that problem's, judged or
            // not: its student is told why their submission was not.
            let named = problem.map(str::to_string).or_else(|| {
                let stem = stem(name);
                [stem.to_string(), stem.to_lowercase()]
                    .into_iter()
                    .find(|s| (self.layout.is_problem)(s))
            });
            self.issue(
                &rel,
                IssueKind::UnknownExtension,
                Some(student),
                named.as_deref(),
                format!("no language has the extension {ext} (known: {known})"),
            );
            return;
        }
        let problem = match problem {
            Some(id) => id.to_string(),
            None => {
                let stem = stem(name);
                let lower = stem.to_lowercase();
                if (self.layout.is_problem)(stem) {
                    stem.to_string()
                } else if (self.layout.is_problem)(&lower) {
                    lower
                } else {
                    self.issue(
                        &rel,
                        IssueKind::UnknownProblem,
                        Some(student),
                        None,
                        format!("no problem is called `{stem}`: name each file after its problem id, e.g. nim.c"),
                    );
                    return;
                }
            }
        };
        self.candidates.push(Candidate {
            student: student.to_string(),
            problem: ProblemId(problem),
            rel,
            path: path.to_path_buf(),
        });
    }

    fn finish(mut self) -> Walked {
        let mut by_key: BTreeMap<(String, ProblemId), Vec<Candidate>> = BTreeMap::new();
        for c in std::mem::take(&mut self.candidates) {
            by_key
                .entry((c.student.clone(), c.problem.clone()))
                .or_default()
                .push(c);
        }
        let mut items = Vec::new();
        for ((student, problem), mut found) in by_key {
            // With --problem, a file named after the problem beats other files.
            if found.len() > 1 {
                let named: Vec<usize> = (0..found.len())
                    .filter(|&i| {
                        Path::new(&found[i].rel)
                            .file_stem()
                            .is_some_and(|s| s.eq_ignore_ascii_case(problem.as_str()))
                    })
                    .collect();
                if named.len() == 1 {
                    found = vec![found.swap_remove(named[0])];
                }
            }
            if found.len() > 1 {
                let files: Vec<&str> = found.iter().map(|c| c.rel.as_str()).collect();
                for c in &found {
                    self.issues.push(Issue {
                        path: c.rel.clone(),
                        kind: IssueKind::Duplicate,
                        student: Some(student.clone()),
                        problem: Some(problem.clone()),
                        message: format!(
                            "{} files for {problem} ({}): none is judged; keep one",
                            found.len(),
                            files.join(", ")
                        ),
                    });
                }
                continue;
            }
            let c = &found[0];
            match read_source(&c.path) {
                Ok(bytes) => items.push(Item {
                    student,
                    problem,
                    file: c.rel.clone(),
                    sha: sha256(&bytes),
                }),
                Err(why) => self.issues.push(Issue {
                    path: c.rel.clone(),
                    kind: IssueKind::Unreadable,
                    student: Some(student),
                    problem: Some(problem),
                    message: why.to_string(),
                }),
            }
        }
        items.sort();
        self.issues.sort();
        Walked {
            students: self.students.into_iter().collect(),
            items,
            issues: self.issues,
        }
    }
}

fn is_hidden(name: &str) -> bool {
    name.starts_with('.') || name == "__MACOSX"
}

/// The name without its last extension: `alice.py` → `alice`.
fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    fn kinds(w: &Walked) -> Vec<(String, IssueKind)> {
        w.issues.iter().map(|i| (i.path.clone(), i.kind)).collect()
    }

    #[test]
    fn folder_layout_finds_problems_and_reports_the_rest() {
        let t = tempfile::tempdir().expect("tempdir");
        let r = t.path();
        write(r, "alice/nim.c", "int main(){}");
        write(r, "alice/hw/wythoff.py", "print(1)");
        write(r, "bob/nim.c", "x");
        write(r, "bob/nim.py", "y");
        write(r, "bob/notes.txt", "z");
        write(r, "bob/other.c", "z");
        write(r, "bob/.DS_Store", "z");
        std::fs::create_dir_all(r.join("carol")).expect("mkdir");
        write(r, "stray.c", "z");
        let languages = Languages::default();
        let is_problem = |s: &str| s == "nim" || s == "wythoff";
        let layout = Layout {
            problem: None,
            is_problem: &is_problem,
            languages: &languages,
            skip: None,
        };
        let w = walk(r, &layout).expect("walk");
        assert_eq!(w.students, ["alice", "bob", "carol"]);
        let items: Vec<_> = w
            .items
            .iter()
            .map(|i| (i.student.as_str(), i.problem.as_str(), i.file.as_str()))
            .collect();
        assert_eq!(
            items,
            [
                ("alice", "nim", "alice/nim.c"),
                ("alice", "wythoff", "alice/hw/wythoff.py")
            ]
        );
        assert_eq!(
            kinds(&w),
            [
                ("bob/nim.c".to_string(), IssueKind::Duplicate),
                ("bob/nim.py".to_string(), IssueKind::Duplicate),
                ("bob/notes.txt".to_string(), IssueKind::UnknownExtension),
                ("bob/other.c".to_string(), IssueKind::UnknownProblem),
                ("carol".to_string(), IssueKind::EmptyFolder),
                ("stray.c".to_string(), IssueKind::Misplaced),
            ]
        );
    }

    #[test]
    fn flat_layout_with_a_problem() {
        let t = tempfile::tempdir().expect("tempdir");
        let r = t.path();
        write(r, "alice.py", "print(1)");
        write(r, "bob.c", "x");
        write(r, "bob.py", "x");
        write(r, "dave/solution.c", "x");
        write(r, "erin/nim.c", "x");
        write(r, "erin/scratch.c", "x");
        write(r, "gil/wythoff.c", "x");
        std::os::unix::fs::symlink("/nonexistent", r.join("frank.c")).expect("symlink");
        let languages = Languages::default();
        let known = |s: &str| s == "nim" || s == "wythoff";
        let layout = Layout {
            problem: Some("nim"),
            is_problem: &known,
            languages: &languages,
            skip: None,
        };
        let w = walk(r, &layout).expect("walk");
        let items: Vec<_> = w
            .items
            .iter()
            .map(|i| (i.student.as_str(), i.file.as_str()))
            .collect();
        assert_eq!(
            items,
            [
                ("alice", "alice.py"),
                ("dave", "dave/solution.c"),
                ("erin", "erin/nim.c")
            ]
        );
        // gil's only file is another problem's: nothing to judge for nim.
        assert_eq!(w.students, ["alice", "bob", "dave", "erin", "frank", "gil"]);
        assert_eq!(
            kinds(&w),
            [
                ("bob.c".to_string(), IssueKind::Duplicate),
                ("bob.py".to_string(), IssueKind::Duplicate),
                ("frank.c".to_string(), IssueKind::Unreadable),
            ]
        );
    }

    #[test]
    fn a_folder_named_after_a_problem_is_one_submission() {
        let t = tempfile::tempdir().expect("tempdir");
        let r = t.path();
        write(r, "alice/nim/main.cpp", "#include \"util.h\"");
        write(r, "alice/nim/util.h", "int f();");
        write(r, "bob/wythoff/main.py", "import m");
        write(r, "bob/wythoff/m.py", "x = 1");
        let languages = Languages::default();
        let is_problem = |s: &str| s == "nim" || s == "wythoff";
        let layout = Layout {
            problem: None,
            is_problem: &is_problem,
            languages: &languages,
            skip: None,
        };
        let w = walk(r, &layout).expect("walk");
        let items: Vec<_> = w
            .items
            .iter()
            .map(|i| (i.student.as_str(), i.problem.as_str(), i.file.as_str()))
            .collect();
        assert_eq!(
            items,
            [
                ("alice", "nim", "alice/nim"),
                ("bob", "wythoff", "bob/wythoff")
            ]
        );
        assert!(w.issues.is_empty(), "{:?}", w.issues);
        // The fingerprint changes with any file of the folder.
        let before = w.items[0].sha.clone();
        write(r, "alice/nim/util.h", "int g();");
        let w = walk(r, &layout).expect("walk");
        assert_ne!(w.items[0].sha, before);
    }

    #[test]
    fn non_utf8_names_are_reported() {
        use std::os::unix::ffi::OsStrExt;
        let t = tempfile::tempdir().expect("tempdir");
        let r = t.path();
        let bad = std::ffi::OsStr::from_bytes(b"caf\xe9");
        std::fs::create_dir_all(r.join(bad)).expect("mkdir");
        std::fs::write(r.join(bad).join("nim.c"), "x").expect("write");
        let languages = Languages::default();
        let is_problem = |s: &str| s == "nim";
        let layout = Layout {
            problem: None,
            is_problem: &is_problem,
            languages: &languages,
            skip: None,
        };
        let w = walk(r, &layout).expect("walk");
        assert!(w.items.is_empty());
        assert_eq!(w.issues.len(), 1);
        assert_eq!(w.issues[0].kind, IssueKind::BadName);
        assert_eq!(w.issues[0].path, "caf\u{fffd}");
    }
}
