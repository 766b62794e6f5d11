//! Problem specs: the model ([`Problem`]) and where problems are found.
//!
//! `grundy judge nim …` looks the id up in the problems folder
//! (`--problems DIR`, else `$GRUNDY_PROBLEMS`, else `./problems`); a path to
//! a folder holding `problem.yaml` works too, and so does an ICPC / Kattis
//! problem package, read by the loader in `icpc` (private: what the judge
//! needs of a package is in the model, [`PackageFacts`]).

pub mod expected;
pub mod file;
mod icpc;
mod model;
mod yaml;

use std::path::{Path, PathBuf};

use thiserror::Error;

pub use crate::units::{parse_bytes, parse_duration};
pub use file::read_regular;
pub use icpc::{package_score, stage, statement_text};
pub use model::*;

/// The spec file inside a problem folder.
pub const SPEC_FILE: &str = "problem.yaml";

/// A spec that cannot be used; always names the file, and for YAML the
/// line and column, so the author can go straight there.
#[derive(Debug, Error)]
pub enum SpecError {
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{line}:{column}: {message}", path.display())]
    Yaml {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// A plain refusal with no other error under it (a missing folder, a
    /// value out of range).
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
    /// A part of `path` that its own reader refused (validator arguments,
    /// a `testdata.yaml`'s constants, `generators.yaml`): the refusal kept
    /// as the typed error it is, its words after the file's name as
    /// [`SpecError::Invalid`] shows a message.
    #[error("{}: {source}", path.display())]
    Refused { path: PathBuf, source: Refusal },
    #[error("no problem `{id}`{}", not_found_hint(suggestion.as_deref(), dir))]
    NotFound {
        id: String,
        dir: PathBuf,
        /// The nearest id in the folder, when one is close enough to be a typo.
        suggestion: Option<String>,
    },
}

/// The error under a [`SpecError::Refused`], boxed as it came (the spec
/// loader sits below the judge, whose `Source` is the same type).
pub type Refusal = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Whether `s` may be a problem id: lowercase letters, digits and '-', as
/// `problem.yaml` requires (so it is also a safe folder name).
pub fn is_problem_id(s: &str) -> bool {
    yaml::is_id(s)
}

/// Loads one `problem.yaml`.
pub fn load(path: &Path) -> Result<Problem, SpecError> {
    let bytes = file::read_regular(path).map_err(|source| SpecError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| SpecError::Invalid {
        path: path.to_path_buf(),
        message: format!(
            "not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    })?;
    if path
        .parent()
        .is_some_and(|dir| icpc::is_package_spec(dir, &text))
    {
        return icpc::load(path, &text);
    }
    yaml::parse(path, &text)
}

/// The folder problems are looked up in.
#[derive(Debug, Clone)]
pub struct ProblemSet {
    pub dir: PathBuf,
}

impl ProblemSet {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        ProblemSet { dir: dir.into() }
    }

    /// Every problem folder, sorted by id, loaded; the first bad spec stops
    /// the listing, since a catalog with a broken entry should not look fine.
    pub fn all(&self) -> Result<Vec<Problem>, SpecError> {
        let entries = std::fs::read_dir(&self.dir).map_err(|source| SpecError::Read {
            path: self.dir.clone(),
            source,
        })?;
        let mut specs: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path().join(SPEC_FILE))
            .filter(|p| p.is_file())
            .collect();
        specs.sort();
        specs.iter().map(|p| load(p)).collect()
    }

    /// A problem by id, or by the path of its folder.
    pub fn find(&self, id_or_path: &str) -> Result<Problem, SpecError> {
        let as_path = Path::new(id_or_path);
        if as_path.join(SPEC_FILE).is_file() {
            return load(&as_path.join(SPEC_FILE));
        }
        if as_path.file_name().is_some_and(|n| n == SPEC_FILE) && as_path.is_file() {
            return load(as_path);
        }
        let spec = self.dir.join(id_or_path).join(SPEC_FILE);
        if !id_or_path.contains('/') && spec.is_file() {
            return load(&spec);
        }
        Err(SpecError::NotFound {
            id: id_or_path.to_string(),
            dir: self.dir.clone(),
            suggestion: self.nearest_id(id_or_path),
        })
    }

    /// The problem id in the folder nearest to a mistyped one: Damerau-
    /// Levenshtein distance (a swap such as `nmi` for `nim` is one edit),
    /// at most a third of the id's length, so unrelated names stay unmatched.
    fn nearest_id(&self, typed: &str) -> Option<String> {
        let entries = std::fs::read_dir(&self.dir).ok()?;
        let budget = (typed.chars().count() / 3).max(1);
        entries
            .filter_map(Result::ok)
            .filter(|e| e.path().join(SPEC_FILE).is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .map(|id| (strsim::damerau_levenshtein(typed, &id), id))
            .filter(|(d, _)| *d <= budget)
            .min()
            .map(|(_, id)| id)
    }
}

/// The rest of a not-found message: the likely typo, else where to look.
fn not_found_hint(suggestion: Option<&str>, dir: &Path) -> String {
    match suggestion {
        Some(s) => format!("; did you mean `{s}`?"),
        None => format!(
            " in {} (`grundy list` shows the problems there; --problems DIR picks another folder)",
            dir.display()
        ),
    }
}

#[cfg(test)]
mod find_tests {
    use super::*;

    #[test]
    fn a_typo_gets_the_nearest_id() {
        let d = tempfile::tempdir().expect("tempdir");
        for id in ["nim", "wythoff", "nim-yes-no"] {
            std::fs::create_dir_all(d.path().join(id)).expect("mkdir");
            std::fs::write(d.path().join(id).join(SPEC_FILE), "").expect("write");
        }
        let set = ProblemSet::new(d.path());
        assert_eq!(set.nearest_id("nmi").as_deref(), Some("nim"));
        assert_eq!(set.nearest_id("wythof").as_deref(), Some("wythoff"));
        assert_eq!(set.nearest_id("chess"), None);
        let e = set.find("nmi").expect_err("not found");
        assert_eq!(e.to_string(), "no problem `nmi`; did you mean `nim`?");
    }
}
