//! Languages: which toolchain builds and runs a submission, and the compile
//! cache that makes a second judging of the same file free.

mod compile;
mod compiler_run;
mod java;
pub mod naming;
mod package_python;
mod pch;
mod python2;
mod scripted;
mod sources;
mod startup;
mod table;
mod toolchain;

use std::path::{Path, PathBuf};

use thiserror::Error;

pub use compile::{CompileOutcome, Compiled, compile};
pub use compiler_run::stopped_at_limit as compile_stopped_at_limit;
pub use java::ClassNameTooLong;
pub use python2::{compile_summary, declares_python2, python2_only};
pub use scripted::{build as build_scripted, is_scripted};
pub use sources::EntryError;
pub use startup::{MissingFile, missing_file, refused_to_start};
pub use table::{ConfigError, Language, builtin};

/// Why a program could not be prepared; none of these is the submission's fault.
#[derive(Debug, Error)]
pub enum LanguageError {
    #[error("{}: cannot tell the language from the extension `{ext}` (use --lang with one of: {known})", path.display())]
    UnknownExtension {
        path: PathBuf,
        ext: String,
        known: String,
    },
    #[error("unknown language `{id}` (known: {known})")]
    UnknownLanguage { id: String, known: String },
    #[error(
        "{language} needs `{program}`, which is not installed here (install it, or judge with another language)"
    )]
    MissingToolchain { language: String, program: String },
    #[error("{}: cannot read the source: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Not a `#[source]`: the text already says it all, and a reporter
    /// that prints an error's chain would say it twice.
    #[error("languages config {0}")]
    Config(table::ConfigError),
    /// Kept word for word as before, under the same heading as a config
    /// error, so that messages do not change.
    #[error("languages config {}: a submission folder must be in one language; found {} (use --lang)", dir.display(), found.join(", "))]
    MixedFolder { dir: PathBuf, found: Vec<String> },
    /// The compiler failed for a reason that is not the source's (see
    /// `compiler_run::compiler_failure`): not cached, judged again next time.
    #[error("the compiler itself failed ({why}); this is not remembered, judge again:\n{log}")]
    CompilerFailed { why: &'static str, log: String },
    #[error("compile cache: {0}")]
    Io(#[from] std::io::Error),
    #[error("compiler: {0}")]
    Sandbox(#[from] crate::sandbox::SandboxError),
}

impl From<table::ConfigError> for LanguageError {
    fn from(e: table::ConfigError) -> Self {
        LanguageError::Config(e)
    }
}

/// The language table in force.
#[derive(Debug, Clone)]
pub struct Languages {
    pub table: Vec<Language>,
    /// The ids whose `compile` or `run` a languages file set: kept as
    /// written for every problem (see `for_problem`).
    commands_set: Vec<String>,
}

impl Default for Languages {
    fn default() -> Self {
        Languages {
            table: builtin(),
            commands_set: Vec::new(),
        }
    }
}

impl Languages {
    /// The built-in table with a config file's entries applied on top.
    pub fn with_config(path: &Path) -> Result<Languages, LanguageError> {
        let text = crate::beneath::read_text(path, crate::beneath::TEXT_CAP).map_err(|source| {
            table::ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }
        })?;
        let file: table::LanguagesFile =
            crate::yaml::from_str(path, &text).map_err(table::ConfigError::Yaml)?;
        let commands_set = file.commands_set();
        let mut table = builtin();
        table::apply(&mut table, path, file)?;
        Ok(Languages {
            table,
            commands_set,
        })
    }

    fn known(&self) -> String {
        self.table
            .iter()
            .map(|l| l.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A language by id (`--lang`).
    pub fn by_id(&self, id: &str) -> Result<&Language, LanguageError> {
        self.table
            .iter()
            .find(|l| l.id == id)
            .ok_or_else(|| LanguageError::UnknownLanguage {
                id: id.into(),
                known: self.known(),
            })
    }

    /// The language of a file by its extension; a file without one that is
    /// executable is a ready executable.
    pub fn detect(&self, path: &Path) -> Result<&Language, LanguageError> {
        if path.is_dir() {
            return sources::detect(&self.table, path);
        }
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if ext.is_empty() && is_executable(path) {
            return self.by_id("exe");
        }
        if ext == "py" && declares_python2(path) {
            return self.by_id("python2");
        }
        self.table
            .iter()
            .find(|l| l.extensions.contains(&ext))
            .ok_or_else(|| LanguageError::UnknownExtension {
                path: path.to_path_buf(),
                ext: if ext.is_empty() {
                    "(none)".into()
                } else {
                    format!(".{ext}")
                },
                known: self
                    .table
                    .iter()
                    .flat_map(|l| l.extensions.iter().map(|e| format!(".{e}")))
                    .collect::<Vec<_>>()
                    .join(" "),
            })
    }
}

/// The program `lang` needs that is not installed here, if any: a known
/// submission in such a language is skipped by `verify`, not judged `IE`.
/// A Python interpreter is seen through a version manager's shim: pyenv's
/// `python2` shim is on `PATH` whether or not a Python 2 is selected, and
/// one that cannot start an interpreter is no interpreter.
pub fn missing_toolchain(lang: &Language) -> Option<String> {
    let needed = lang
        .compile
        .iter()
        .filter_map(|c| c.first())
        .chain(lang.run.first())
        .filter(|p| !p.contains('{'));
    for program in needed {
        let found = if program.starts_with("python") {
            toolchain::resolve(program)
        } else {
            toolchain::find(program)
        };
        if found.is_none() {
            return Some(program.clone());
        }
    }
    None
}

/// The interpreter that runs `lang`'s programs here, seen through shims
/// (`/usr/bin/python3.11`): `None` for a compiled language, whose program
/// runs itself. Said where a time was measured with it.
pub fn interpreter(lang: &Language) -> Option<PathBuf> {
    let program = lang.run.first().filter(|p| !p.contains('{'))?;
    toolchain::resolve(program)
}

/// The bytes that identify a folder submission (every file, named), for
/// grade's journal: a record is reused only for the same files.
pub fn folder_fingerprint(dir: &Path) -> Result<Vec<u8>, LanguageError> {
    sources::SourceSet::read(dir).map(|s| s.key_bytes())
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
