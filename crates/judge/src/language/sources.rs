//! Submissions made of several files: a folder in one language, as people
//! write them (a C++ file and its header, Java classes in files of their
//! own, a Python program with modules).
//!
//! The folder is read once into memory, so the compile cache key covers
//! every file and a change to any of them is a new program. The entry point
//! follows the ICPC package format's conventions: every source file of a
//! compiled language is compiled together; Python runs `__main__.py`, else
//! `main.py`, else the only `.py` file, else the only file that checks
//! `__name__ == "__main__"`.

use std::path::{Path, PathBuf};

use super::{Language, LanguageError};

/// Why a folder submission has no file to start from: a compile error of
/// the submission (it is ambiguous), shown as its compile log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    #[error(
        "cannot tell which of the {files} Python files is the program: name it __main__.py or main.py"
    )]
    AmbiguousPython { files: usize },
    #[error("the folder holds no {language} source file")]
    NoSource { language: String },
}

/// Files beyond this count or size are not a submission but a mistake
/// (a whole project folder): refused before anything is copied.
const MAX_FILES: usize = 200;
const MAX_BYTES: u64 = 16 << 20;

/// The files of a folder submission, relative to the folder, in name order.
#[derive(Debug, Clone)]
pub struct SourceSet {
    pub files: Vec<(PathBuf, Vec<u8>)>,
}

impl SourceSet {
    /// Reads every regular, visible file under `dir`. Symbolic links are
    /// not followed: a submission consists of what it holds.
    pub fn read(dir: &Path) -> Result<SourceSet, LanguageError> {
        let read_err = |source: std::io::Error| LanguageError::Read {
            path: dir.to_path_buf(),
            source,
        };
        // The folder as named (a link to it followed); below it, nothing.
        let real = std::fs::canonicalize(dir).map_err(read_err)?;
        let mut files = Vec::new();
        let mut total = 0u64;
        let walk = walkdir::WalkDir::new(dir)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
        for entry in walk {
            let entry = entry.map_err(|e| read_err(std::io::Error::other(e.to_string())))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let rel = entry
                .path()
                .strip_prefix(dir)
                .map(Path::to_path_buf)
                .unwrap_or_else(|_| PathBuf::from(entry.file_name()));
            // Read as it was walked: a file swapped for a link or a FIFO
            // since is refused, and none is read past what is left.
            let left = MAX_BYTES.saturating_sub(total);
            let bytes = crate::beneath::read(&real, &rel.to_string_lossy(), left + 1)
                .and_then(|b| b.ok_or_else(|| std::io::ErrorKind::NotFound.into()))
                .map_err(|source| LanguageError::Read {
                    path: entry.path().to_path_buf(),
                    source,
                })?;
            total += bytes.len() as u64;
            files.push((rel, bytes));
            if files.len() > MAX_FILES || total > MAX_BYTES {
                return Err(read_err(std::io::Error::other(format!(
                    "a submission folder may hold at most {MAX_FILES} files and {} MiB",
                    MAX_BYTES >> 20
                ))));
            }
        }
        if files.is_empty() {
            return Err(read_err(std::io::Error::other("the folder holds no files")));
        }
        Ok(SourceSet { files })
    }

    /// The files written in `lang` (by extension).
    pub fn sources_of<'a>(&'a self, lang: &'a Language) -> impl Iterator<Item = &'a PathBuf> {
        self.files
            .iter()
            .map(|(p, _)| p)
            .filter(move |p| has_extension(p, &lang.extensions))
    }

    /// The file a run starts from, or why none can be chosen (a compile
    /// error: the submission is ambiguous).
    pub fn entry(&self, lang: &Language) -> Result<PathBuf, EntryError> {
        let sources: Vec<&PathBuf> = self.sources_of(lang).collect();
        let named = |name: &str| {
            sources
                .iter()
                .find(|p| p.file_name().is_some_and(|n| n == name))
                .map(|p| (*p).clone())
        };
        if lang.id == "python" {
            if let Some(p) = named("__main__.py").or_else(|| named("main.py")) {
                return Ok(p);
            }
            if let [only] = sources.as_slice() {
                return Ok((*only).clone());
            }
            let scripts: Vec<&PathBuf> = sources
                .iter()
                .copied()
                .filter(|p| {
                    self.text(p)
                        .is_some_and(|t| t.contains("__name__") && t.contains("__main__"))
                })
                .collect();
            return match scripts.as_slice() {
                [one] => Ok((*one).clone()),
                _ => Err(EntryError::AmbiguousPython {
                    files: sources.len(),
                }),
            };
        }
        if let Some(p) = lang
            .extensions
            .iter()
            .find_map(|e| named(&format!("main.{e}")))
        {
            return Ok(p);
        }
        sources
            .first()
            .map(|p| (*p).clone())
            .ok_or_else(|| EntryError::NoSource {
                language: lang.name.clone(),
            })
    }

    fn text(&self, rel: &Path) -> Option<String> {
        self.files
            .iter()
            .find(|(p, _)| p == rel)
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
    }

    /// The bytes that identify this program in the compile cache.
    pub fn key_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (p, b) in &self.files {
            let name = p.to_string_lossy();
            out.extend_from_slice(&(name.len() as u64).to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(&(b.len() as u64).to_le_bytes());
            out.extend_from_slice(b);
        }
        out
    }

    /// Writes the files under `root`, refusing paths that would leave it.
    pub fn write_to(&self, root: &Path) -> std::io::Result<()> {
        for (rel, bytes) in &self.files {
            if rel
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
            {
                return Err(std::io::Error::other(format!(
                    "{}: not a plain relative path",
                    rel.display()
                )));
            }
            let to = root.join(rel);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(to, bytes)?;
        }
        Ok(())
    }
}

fn has_extension(p: &Path, extensions: &[String]) -> bool {
    p.extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .is_some_and(|e| extensions.contains(&e))
}

/// The one language of a folder's source files. C and C++ together are
/// C++ (g++ compiles both); headers and other files belong to no language.
pub fn detect<'a>(table: &'a [Language], dir: &Path) -> Result<&'a Language, LanguageError> {
    let set = SourceSet::read(dir)?;
    let mut found: Vec<&Language> = table
        .iter()
        .filter(|l| !l.extensions.is_empty())
        .filter(|l| {
            set.files
                .iter()
                .any(|(p, _)| has_extension(p, &l.extensions))
        })
        .collect();
    if found.len() == 2 && found.iter().any(|l| l.id == "c") && found.iter().any(|l| l.id == "cpp")
    {
        found.retain(|l| l.id == "cpp");
    }
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(LanguageError::UnknownExtension {
            path: dir.to_path_buf(),
            ext: "(no source file in the folder)".into(),
            known: known_extensions(table),
        }),
        many => Err(LanguageError::MixedFolder {
            dir: dir.to_path_buf(),
            found: many.iter().map(|l| l.name.clone()).collect(),
        }),
    }
}

fn known_extensions(table: &[Language]) -> String {
    table
        .iter()
        .flat_map(|l| l.extensions.iter().map(|e| format!(".{e}")))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::builtin;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().expect("tempdir");
        for (name, text) in files {
            let p = d.path().join(name);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
        d
    }

    #[test]
    fn cpp_with_a_header_and_a_c_file_is_cpp() {
        let d = folder(&[("a.cpp", ""), ("b.h", ""), ("c.c", "")]);
        let table = builtin();
        assert_eq!(detect(&table, d.path()).expect("detect").id, "cpp");
    }

    #[test]
    fn two_languages_are_refused() {
        let d = folder(&[("a.py", ""), ("B.java", "")]);
        let table = builtin();
        assert!(detect(&table, d.path()).is_err());
    }

    #[test]
    fn python_entry_follows_the_format() {
        let table = builtin();
        let py = table.iter().find(|l| l.id == "python").expect("python");
        let d = folder(&[("util.py", "x=1"), ("main.py", "import util")]);
        let set = SourceSet::read(d.path()).expect("read");
        assert_eq!(set.entry(py).expect("entry"), PathBuf::from("main.py"));
        let d = folder(&[
            ("util.py", "x=1"),
            ("solve.py", "if __name__ == \"__main__\": pass"),
        ]);
        let set = SourceSet::read(d.path()).expect("read");
        assert_eq!(set.entry(py).expect("entry"), PathBuf::from("solve.py"));
        let d = folder(&[("a.py", ""), ("b.py", "")]);
        let set = SourceSet::read(d.path()).expect("read");
        assert_eq!(set.entry(py), Err(EntryError::AmbiguousPython { files: 2 }));
    }

    #[test]
    fn hidden_files_are_not_part_of_the_program() {
        let d = folder(&[("main.c", "int main(){}"), (".git/config", "x")]);
        let set = SourceSet::read(d.path()).expect("read");
        assert_eq!(set.files.len(), 1);
    }
}
