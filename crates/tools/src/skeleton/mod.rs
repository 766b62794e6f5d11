//! `grundy new`: a new problem folder that verifies as written, so a setter
//! starts from something that works and changes it one step at a time
//! (BAPCtools' `new_problem`, problemtools' skeleton). The files are kept
//! as files under `skeleton/files/`, readable and editable as they will be
//! written; only the id is filled in.

mod game;

use std::path::{Path, PathBuf};

use thiserror::Error;

pub use game::{create_game, read_description};

/// Why no skeleton was written.
#[derive(Debug, Error)]
pub enum NewError {
    #[error(
        "`{0}` is not a usable problem id: use lowercase letters, digits and '-' (like `nim-yes-no`)"
    )]
    BadId(String),
    #[error("{}: already exists; choose another id or remove it first", .0.display())]
    Exists(PathBuf),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The description given to `--game` is refused (where and why).
    #[error("{0}")]
    Game(String),
}

/// The files of a new problem: path under the problem folder, text with
/// `{id}` to fill in.
const FILES: &[(&str, &str)] = &[
    ("problem.yaml", include_str!("files/problem.yaml")),
    ("statement.md", include_str!("files/statement.md")),
    ("reference.rs", include_str!("files/reference.rs")),
    ("generator.py", include_str!("files/generator.py")),
    ("validator.py", include_str!("files/validator.py")),
    (
        "submissions/accepted/solution.c",
        include_str!("files/accepted.c"),
    ),
    (
        "submissions/wrong_answer/odd_wins.py",
        include_str!("files/wrong_answer.py"),
    ),
];

/// What was written.
#[derive(Debug)]
pub struct Created {
    pub dir: PathBuf,
    pub files: Vec<PathBuf>,
}

/// Writes the skeleton of problem `id` into `problems/<id>`; never touches
/// an existing folder. A failure half-way removes what it wrote.
pub fn create(problems: &Path, id: &str) -> Result<Created, NewError> {
    let files: Vec<(&str, String)> = FILES
        .iter()
        .map(|(rel, text)| (*rel, text.replace("{id}", id)))
        .collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(r, t)| (*r, t.as_str())).collect();
    create_with(problems, id, &files)
}

/// Writes `files` (path under the problem folder, text) into
/// `problems/<id>`; never touches an existing folder, and removes what it
/// wrote when it fails half-way.
fn create_with(problems: &Path, id: &str, files: &[(&str, &str)]) -> Result<Created, NewError> {
    if !crate::problem::is_problem_id(id) {
        return Err(NewError::BadId(id.to_string()));
    }
    let dir = problems.join(id);
    if dir.symlink_metadata().is_ok() {
        return Err(NewError::Exists(dir));
    }
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| NewError::Write { path, source }
    };
    std::fs::create_dir_all(problems).map_err(write_err(problems))?;
    // `create_dir` (not `_all`) fails if another process made it meanwhile.
    std::fs::create_dir(&dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => NewError::Exists(dir.clone()),
        _ => write_err(&dir)(e),
    })?;
    let written = write_files(&dir, files);
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(Created {
        files: written?,
        dir,
    })
}

fn write_files(dir: &Path, all: &[(&str, &str)]) -> Result<Vec<PathBuf>, NewError> {
    let mut files = Vec::with_capacity(all.len());
    for (rel, text) in all {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| NewError::Write {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        std::fs::write(&path, text).map_err(|source| NewError::Write {
            path: path.clone(),
            source,
        })?;
        files.push(path);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skeleton_spec_loads_and_names_its_files() {
        let d = tempfile::tempdir().expect("tempdir");
        let made = create(d.path(), "demo").expect("created");
        let p = crate::problem::load(&made.dir.join("problem.yaml")).expect("spec loads");
        assert_eq!(p.id, "demo");
        assert_eq!(p.reference, Some(made.dir.join("reference.rs")));
        assert_eq!(p.input_validators, vec![made.dir.join("validator.py")]);
        assert_eq!(p.samples.len(), 1);
    }

    #[test]
    fn an_existing_folder_or_a_bad_id_is_refused_and_left_alone() {
        let d = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(d.path().join("demo")).expect("mkdir");
        std::fs::write(d.path().join("demo/keep.txt"), "mine").expect("write");
        let e = create(d.path(), "demo").expect_err("exists");
        assert!(matches!(e, NewError::Exists(_)), "{e}");
        assert_eq!(
            std::fs::read_to_string(d.path().join("demo/keep.txt")).expect("kept"),
            "mine"
        );
        for bad in ["Demo", "a/b", "../x", "", "with space"] {
            let e = create(d.path(), bad).expect_err("bad id");
            assert!(matches!(e, NewError::BadId(_)), "{bad}: {e}");
        }
        assert!(!d.path().join("x").exists());
    }
}
