//! Which programs of a problem are mutated: its reference and every
//! accepted submission, in every language the mutation engine reads; and
//! what the problem's constraints say about the size of values.

use std::path::{Path, PathBuf};

use crate::judge;
use crate::problem::Problem;
use crate::verdict::Verdict;

use super::source::{Language, Widths};

/// One program whose mutants measure the tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub path: PathBuf,
    pub language: Language,
    /// Whether it is the problem's reference (whose answers the tests use).
    pub reference: bool,
}

impl Program {
    /// The name it goes by in reports and group names: the file name
    /// (`solution.cpp`).
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path.display().to_string())
    }

    /// `solution-cpp`: the file name as a group-name fragment.
    pub fn slug(&self) -> String {
        let mut s: String = self
            .file_name()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        while s.contains("--") {
            s = s.replace("--", "-");
        }
        s.trim_matches('-').to_string()
    }
}

/// The programs of a problem that can be mutated: the reference first
/// (when it is in a language the engine reads), then the accepted
/// submissions in name order. A submission that is a folder (several
/// files) is left out, and so is a file with the same content as one
/// already listed.
pub fn of(problem: &Problem) -> Vec<Program> {
    let mut out: Vec<Program> = Vec::new();
    let mut contents: Vec<Vec<u8>> = Vec::new();
    let mut add = |path: &Path, reference: bool| {
        let Some(language) = Language::of_path(path) else {
            return;
        };
        if !path.is_file() {
            return;
        }
        let content =
            crate::problem::file::read_capped(path, crate::beneath::SOURCE_CAP).unwrap_or_default();
        if contents.contains(&content) {
            return;
        }
        contents.push(content);
        out.push(Program {
            path: path.to_path_buf(),
            language,
            reference,
        });
    };
    if let Some(r) = &problem.reference {
        add(r, true);
    }
    for (verdict, path) in judge::known_submissions(&problem.dir) {
        if verdict == Verdict::AC {
            add(&path, false);
        }
    }
    out
}

/// The widths of the values a catalog or described problem's input may
/// hold, from its input format; unknown for other problems.
pub fn widths(problem: &Problem) -> Widths {
    crate::catalog::input_format_for(&problem.id.0, problem.game.as_ref())
        .map(|f| Widths::for_max(f.largest_value()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_group_name_fragments() {
        let p = Program {
            path: PathBuf::from("/x/accepted/Solution_2.cpp"),
            language: Language::Cpp,
            reference: false,
        };
        assert_eq!(p.slug(), "solution-2-cpp");
        assert_eq!(p.file_name(), "Solution_2.cpp");
    }
}
