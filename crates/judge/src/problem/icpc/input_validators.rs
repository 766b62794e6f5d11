//! `input_validators/`: the programs that say whether each test input is
//! one the problem allows. `verify` runs every one on every test (exit 42
//! valid, anything else invalid), as the format asks of its tools.
//!
//! The folder has had three names: `input_format_validators/` (early
//! legacy packages), `input_validators/` (legacy, 2023-07 and 2025-09,
//! each entry one validator: a file, or a folder built as one program), and
//! `input_validator/` (one program, a 2023-07 draft layout that tools still
//! write). Checktestdata (`.ctd`) and VIVA (`.viva`) descriptions need
//! their own interpreters: skipped with a note each.

use std::path::{Path, PathBuf};

use super::validators::visible_entries;

/// Folders holding several validators, each entry one.
const MANY: [&str; 2] = ["input_validators", "input_format_validators"];
/// A folder that is itself one validator.
const ONE: &str = "input_validator";

/// Extensions of files that belong to a validator without being one
/// (headers next to a single source, documentation).
const NOT_PROGRAMS: [&str; 6] = ["h", "hpp", "hh", "md", "txt", "pdf"];

/// The validator programs of the package in `dir` (files, or folders built
/// as one program), and a note for each validator grundy cannot run.
pub fn find(dir: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let mut programs = Vec::new();
    let mut notes = Vec::new();
    let rel = |p: &Path| p.strip_prefix(dir).unwrap_or(p).display().to_string();
    for folder in MANY.map(|f| dir.join(f)) {
        for entry in visible_entries(&folder).unwrap_or_default() {
            let ext = entry
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            match ext.as_str() {
                "ctd" => notes.push(format!(
                    "{}: a checktestdata description, not run (no checktestdata here); the other input validators are",
                    rel(&entry)
                )),
                "viva" => notes.push(format!(
                    "{}: a VIVA description, not run (no VIVA here); the other input validators are",
                    rel(&entry)
                )),
                _ if entry.is_file() && NOT_PROGRAMS.contains(&ext.as_str()) => {}
                _ => programs.push(entry),
            }
        }
    }
    let one = dir.join(ONE);
    if one.is_dir() {
        programs.push(one);
    }
    (programs, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_is_found_and_descriptions_are_noted() {
        let d = tempfile::tempdir().expect("tempdir");
        for f in [
            "input_validators/validate.py",
            "input_validators/check.ctd",
            "input_validators/rules.viva",
            "input_validators/validation.h",
            "input_validators/multi/main.cpp",
            "input_validators/multi/validation.h",
            "input_format_validators/old.py",
            "input_validator/validator.cpp",
        ] {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, "").expect("write");
        }
        let (programs, notes) = find(d.path());
        let rel: Vec<String> = programs
            .iter()
            .map(|p| {
                p.strip_prefix(d.path())
                    .expect("inside")
                    .display()
                    .to_string()
            })
            .collect();
        assert_eq!(
            rel,
            [
                "input_validators/multi",
                "input_validators/validate.py",
                "input_format_validators/old.py",
                "input_validator"
            ]
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("check.ctd") && notes[1].contains("rules.viva"));
    }
}
