//! The output validator: the format's default one with its flags, or the
//! package's own program (one source, a folder of sources built together,
//! or an executable `run`).

use std::path::{Path, PathBuf};

use super::schema::{RawPackage, Version};
use crate::problem::{CheckerSpec, IcpcFlags, SpecError};

/// Extensions of the languages grundy builds.
const SOURCE_EXTENSIONS: [&str; 8] = ["c", "cpp", "cc", "cxx", "c++", "java", "py", "rs"];

/// The checker of the package; `args` are the validator arguments in force
/// for the secret test data.
pub fn checker(
    dir: &Path,
    spec: &Path,
    raw: &RawPackage,
    mut args: Vec<String>,
    version: Version,
) -> Result<CheckerSpec, SpecError> {
    let invalid = |message: String| SpecError::Invalid {
        path: spec.to_path_buf(),
        message,
    };
    let mut all: Vec<String> = raw
        .validator_flags
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    all.append(&mut args);
    let folder = dir.join(version.validator_folder());
    let custom = match version {
        Version::Legacy => {
            let words: Vec<&str> = raw
                .validation
                .as_deref()
                .unwrap_or("default")
                .split_whitespace()
                .collect();
            match words.as_slice() {
                ["default"] => false,
                // A validator that may write `score.txt`: judged as a
                // custom one (`scoring` notes that the score is not read).
                ["custom"] | ["custom", "score"] => true,
                ["custom", rest @ ..]
                    if rest.iter().all(|w| matches!(*w, "interactive" | "score")) =>
                {
                    return Err(unsupported(
                        spec,
                        &format!(
                            "`validation: {}` (interactive or scoring validators)",
                            words.join(" ")
                        ),
                    ));
                }
                _ => {
                    return Err(invalid(format!(
                        "validation: expected `default` or `custom`, found `{}`",
                        words.join(" ")
                    )));
                }
            }
        }
        Version::V2023 | Version::V2025 => {
            if raw.validation.is_some() || raw.validator_flags.is_some() {
                return Err(invalid(
                    "`validation` and `validator_flags` are legacy keys: from 2023-07 on the validator is `output_validator/` and its flags are `output_validator_args` in data/testdata.yaml".into(),
                ));
            }
            folder.is_dir()
        }
    };
    if !custom {
        if folder.is_dir() && version == Version::Legacy {
            return Err(invalid(format!(
                "{} exists but `validation` is `default`: set `validation: custom` to use it, or remove the folder",
                folder.display()
            )));
        }
        return default_flags(&all)
            .map(CheckerSpec::IcpcDefault)
            .map_err(|e| SpecError::Refused {
                path: spec.to_path_buf(),
                source: e.into(),
            });
    }
    let program = validator_program(&folder, version)?;
    let rel = program
        .strip_prefix(dir)
        .map(Path::to_path_buf)
        .unwrap_or(program);
    Ok(CheckerSpec::Icpc {
        program: rel,
        args: all,
    })
}

pub fn unsupported(path: &Path, what: &str) -> SpecError {
    SpecError::Invalid {
        path: path.to_path_buf(),
        message: format!("{what} is not supported by grundy (docs/icpc.md lists what is)"),
    }
}

/// Why the default output validator's flags are refused.
#[derive(Debug, thiserror::Error)]
pub enum FlagError {
    #[error("validator flag `{0}` needs a number after it")]
    NoNumber(String),
    #[error("validator flag `{flag}`: `{found}` is not a non-negative number")]
    NotANumber { flag: String, found: String },
    #[error(
        "unknown flag `{0}` for the default output validator (it takes case_sensitive, space_change_sensitive, float_tolerance E, float_relative_tolerance E, float_absolute_tolerance E)"
    )]
    Unknown(String),
}

/// Parses the default validator's flags.
pub fn default_flags(args: &[String]) -> Result<IcpcFlags, FlagError> {
    let mut flags = IcpcFlags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = |what: &str| -> Result<f64, FlagError> {
            let v = it
                .next()
                .ok_or_else(|| FlagError::NoNumber(what.to_string()))?;
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| FlagError::NotANumber {
                    flag: what.to_string(),
                    found: v.clone(),
                })
        };
        match a.as_str() {
            "case_sensitive" => flags.case_sensitive = true,
            "space_change_sensitive" => flags.space_change_sensitive = true,
            "float_tolerance" => {
                let t = number(a)?;
                flags.float_abs = Some(t);
                flags.float_rel = Some(t);
            }
            "float_absolute_tolerance" => flags.float_abs = Some(number(a)?),
            "float_relative_tolerance" => flags.float_rel = Some(number(a)?),
            other => {
                return Err(FlagError::Unknown(other.to_string()));
            }
        }
    }
    Ok(flags)
}

/// The program of a validator folder: the folder itself when it has a
/// `build` or `run` script; else a single
/// source file (directly in `output_validators/`, or alone in its folder);
/// else the folder's sources built together as one program (`validate.cc`
/// with `validate.h`, the stock layout).
fn validator_program(folder: &Path, version: Version) -> Result<PathBuf, SpecError> {
    let missing = || SpecError::Invalid {
        path: folder.to_path_buf(),
        message: "a custom output validator is named, but there is no program here".into(),
    };
    let entries = visible_entries(folder).map_err(|_| missing())?;
    let program_dir = match version {
        Version::Legacy => {
            // A header or any other file no language builds on its own
            // (`testlib.h` beside `checker.cpp`) is part of the program
            // beside it, as DOMjudge and problemtools build it: only the
            // entries that are programs are counted.
            let programs: Vec<&PathBuf> = entries
                .iter()
                .filter(|e| !e.is_file() || has_source_extension(e))
                .collect();
            match programs.as_slice() {
                [] if entries.is_empty() => return Err(missing()),
                [] => return source_file(&entries[0]),
                [one] if one.is_file() && programs.len() == entries.len() => {
                    return source_file(one);
                }
                // One source with its headers beside it: the folder is
                // the program, its sources built together.
                [one] if one.is_file() => folder.to_path_buf(),
                [one] => (*one).clone(),
                many => {
                    let names: Vec<String> = many
                        .iter()
                        .filter_map(|p| p.file_name())
                        .map(|n| n.to_string_lossy().into_owned())
                        .collect();
                    return Err(SpecError::Invalid {
                        path: folder.to_path_buf(),
                        message: format!(
                            "{} output validators found ({}): grundy runs exactly one (keep one program here; headers beside it are fine)",
                            many.len(),
                            names.join(", ")
                        ),
                    });
                }
            }
        }
        // A 2023-07 draft layout problemtools still ships (its `guess`
        // example): the one program sits in a folder of its own inside
        // `output_validator/`.
        _ => match entries.as_slice() {
            [one] if one.is_dir() => one.clone(),
            _ => folder.to_path_buf(),
        },
    };
    // `build` and/or `run` scripts: the folder is the program, built as
    // the format says (see `language::build_scripted`).
    if crate::language::is_scripted(&program_dir) {
        return Ok(program_dir);
    }
    let files = visible_entries(&program_dir).map_err(|_| missing())?;
    let sources = files
        .iter()
        .filter(|f| f.is_file() && has_source_extension(f))
        .count();
    match files.as_slice() {
        [] => Err(missing()),
        [one] if one.is_file() => source_file(one),
        _ if sources > 0 => Ok(program_dir),
        _ => Err(missing()),
    }
}

pub fn has_source_extension(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    SOURCE_EXTENSIONS.contains(&ext.as_str())
}

fn source_file(path: &Path) -> Result<PathBuf, SpecError> {
    if has_source_extension(path) {
        Ok(path.to_path_buf())
    } else {
        Err(SpecError::Invalid {
            path: path.to_path_buf(),
            message: format!(
                "grundy cannot build this validator: use source files ending in .{}",
                SOURCE_EXTENSIONS.join(", .")
            ),
        })
    }
}

/// The entries of a folder, sorted, without hidden files.
pub fn visible_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    v.sort();
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_flags_parse() {
        let args: Vec<String> = ["case_sensitive", "float_tolerance", "1e-6"]
            .map(String::from)
            .to_vec();
        let f = default_flags(&args).expect("flags");
        assert!(f.case_sensitive);
        assert_eq!(f.float_abs, Some(1e-6));
        assert!(default_flags(&["bogus".to_string()]).is_err());
        assert!(default_flags(&["float_tolerance".to_string()]).is_err());
    }

    #[test]
    fn a_source_and_its_header_are_one_program() {
        let d = tempfile::tempdir().expect("tempdir");
        let v = d.path().join("output_validator");
        std::fs::create_dir_all(&v).expect("mkdir");
        std::fs::write(v.join("validate.cc"), "").expect("write");
        std::fs::write(v.join("validate.h"), "").expect("write");
        assert_eq!(validator_program(&v, Version::V2023).expect("program"), v);
        std::fs::remove_file(v.join("validate.h")).expect("rm");
        assert_eq!(
            validator_program(&v, Version::V2023).expect("program"),
            v.join("validate.cc")
        );
    }

    #[test]
    fn a_legacy_validator_with_a_header_beside_it_is_one_program() {
        let d = tempfile::tempdir().expect("tempdir");
        let v = d.path().join("output_validators");
        std::fs::create_dir_all(&v).expect("mkdir");
        std::fs::write(v.join("checker.cpp"), "").expect("write");
        std::fs::write(v.join("testlib.h"), "").expect("write");
        assert_eq!(validator_program(&v, Version::Legacy).expect("program"), v);
        std::fs::write(v.join("other.cpp"), "").expect("write");
        let e = validator_program(&v, Version::Legacy).expect_err("two programs");
        assert!(
            e.to_string()
                .contains("2 output validators found (checker.cpp, other.cpp)"),
            "{e}"
        );
    }

    #[test]
    fn a_2023_validator_may_sit_in_a_folder_of_its_own() {
        let d = tempfile::tempdir().expect("tempdir");
        let v = d.path().join("output_validator");
        let inner = v.join("guess_validator");
        std::fs::create_dir_all(&inner).expect("mkdir");
        std::fs::write(inner.join("validate.cc"), "").expect("write");
        std::fs::write(inner.join("validate.h"), "").expect("write");
        assert_eq!(
            validator_program(&v, Version::V2023).expect("program"),
            inner
        );
    }

    #[test]
    fn flag_refusals_name_the_flag() {
        let e = default_flags(&["float_tolerance".to_string(), "-1".to_string()])
            .expect_err("negative");
        assert_eq!(
            e.to_string(),
            "validator flag `float_tolerance`: `-1` is not a non-negative number"
        );
        let e = default_flags(&["float_absolute_tolerance".to_string()]).expect_err("no number");
        assert_eq!(
            e.to_string(),
            "validator flag `float_absolute_tolerance` needs a number after it"
        );
    }
}
