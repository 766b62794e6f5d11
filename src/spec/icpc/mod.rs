//! ICPC / Kattis problem packages (the `legacy`, `2023-07` and `2025-09`
//! versions of the problem package format) loaded as a [`Problem`], so that
//! `judge` and `verify` take a package folder as they take one of ours.
//!
//! Which `problem.yaml` is which: a folder is read as a package when it has
//! a `data/` folder and its `problem.yaml` has neither of our keys `id` and
//! `groups` (see docs/icpc.md). What grundy cannot honour in a package is
//! skipped with a note per item ([`Problem::notes`]), so that one
//! incidental part never stops the rest from being judged; only what would
//! change every verdict's meaning (another problem type, test data run
//! with arguments, code added to submissions) is refused, by name.

mod expectations;
mod input_validators;
mod interactor;
mod limits;
mod schema;
mod submissions;
mod testdata;
mod validators;

use std::path::{Path, PathBuf};

use super::{Problem, ProblemId, SpecError};
use schema::{RawPackage, Version};
use validators::unsupported;

pub use expectations::{Code, Expectations, Rule, load as expectations};
pub use input_validators::find as input_validators;
pub use testdata::SECRET_GROUP;

/// Whether `dir` holds an ICPC problem package rather than one of our specs:
/// a `problem.yaml` without our `id` and `groups`, with a `data/` folder
/// (or BAPCtools' `generators/generators.yaml`) or a `problem_format_version`.
pub fn is_package(dir: &Path) -> bool {
    let spec = dir.join(super::SPEC_FILE);
    // BAPCtools packages may hold no data/ yet, only generators.yaml; and
    // our specs never declare a format version.
    let tests = dir.join("data").is_dir() || dir.join("generators/generators.yaml").is_file();
    if !spec.is_file() {
        return false;
    }
    let Ok(text) = super::file::read_text(&spec) else {
        return false;
    };
    match serde_yaml::from_str::<serde_yaml::Value>(&text) {
        Ok(serde_yaml::Value::Mapping(m)) => {
            !(m.contains_key("id") || m.contains_key("groups"))
                && (tests || m.contains_key("problem_format_version"))
        }
        // An empty problem.yaml is a valid package (every key has a default).
        Ok(serde_yaml::Value::Null) => tests,
        _ => false,
    }
}

/// Loads the package in `dir` (whose `problem.yaml` is `spec`).
pub fn load(spec: &Path, text: &str) -> Result<Problem, SpecError> {
    let dir = spec.parent().unwrap_or(Path::new(".")).to_path_buf();
    let invalid = |message: String| SpecError::Invalid {
        path: spec.to_path_buf(),
        message,
    };
    let raw: RawPackage = if text.trim().is_empty() {
        RawPackage::default()
    } else {
        serde_yaml::from_str(text).map_err(|e| super::yaml::yaml_error(spec, &e))?
    };
    let version = Version::parse(raw.problem_format_version.as_deref()).map_err(invalid)?;
    let interactive = interactor::is_interactive(&raw).map_err(invalid)?;
    if raw.grading.is_some() {
        return Err(unsupported(spec, "`grading:` (scoring problems)"));
    }
    let mut notes: Vec<String> = raw
        .unknown_keys()
        .into_iter()
        .map(|k| format!("problem.yaml: `{k}` not used"))
        .collect();
    refuse_parts(&dir, version, interactive, &mut notes)?;
    let expected = expectations::load(&dir, &mut notes).map_err(|message| SpecError::Invalid {
        path: dir.join("submissions").join("submissions.yaml"),
        message,
    })?;
    notes.extend(submissions::notes(&dir, expected.as_ref()));
    let id = package_id(&dir).map_err(invalid)?;
    let data = dir.join("data");
    if !data.is_dir() && dir.join("generators/generators.yaml").is_file() {
        return Err(SpecError::Invalid {
            path: dir.join("generators/generators.yaml"),
            message: "the tests of this package are made by generators.yaml, which grundy does not run (docs/icpc.md says why): generate them into data/ first (BAPCtools: `bt generate`)".into(),
        });
    }
    let secret = testdata::secret_groups(&dir)?;
    let args = secret_validator_args(&data, &secret, version, &mut notes)?;
    let (checker, interactor) = if interactive {
        let i = interactor::interactor(&dir, spec, &raw, args, version)?;
        (super::CheckerSpec::Tokens, Some(i))
    } else {
        (validators::checker(&dir, spec, &raw, args, version)?, None)
    };
    let samples = testdata::samples(&dir)?;
    let limits = limits::limits(&dir, &raw.limits, &mut notes).map_err(invalid)?;
    let statement = statement(&dir);
    let title = title(raw.name.as_ref(), statement.as_deref()).unwrap_or_else(|| id.clone());
    Ok(Problem {
        id: ProblemId(id),
        title,
        source: source_text(raw.source.as_ref()),
        dir: dir.clone(),
        spec_path: spec.to_path_buf(),
        statement,
        reference: submissions::first_accepted(&dir),
        seed: 1,
        limits,
        checker,
        interactor,
        samples,
        groups: secret.into_iter().map(|g| g.group).collect(),
        // A package's validators live in `input_validators/` (read there).
        input_validators: Vec::new(),
        notes,
    })
}

/// The output validator arguments in force for the secret data, inherited
/// down the test-data tree. grundy has one checker per problem: the secret
/// groups must agree; samples with other arguments are judged with these,
/// and a note says so.
fn secret_validator_args(
    data: &Path,
    secret: &[testdata::SecretGroup],
    version: Version,
    notes: &mut Vec<String>,
) -> Result<Vec<String>, SpecError> {
    let mut chosen: Option<(Vec<String>, PathBuf)> = None;
    for g in secret {
        let settings = testdata::settings_for(data, &g.folder, version, notes)?;
        let args = testdata::validator_args(&settings).map_err(|message| SpecError::Invalid {
            path: g.folder.clone(),
            message,
        })?;
        match &chosen {
            None => chosen = Some((args, g.folder.clone())),
            Some((first, folder)) if *first != args => {
                return Err(unsupported(
                    &g.folder,
                    &format!(
                        "output validator arguments `{}` differing from those of {} (`{}`): one validator setting per problem",
                        args.join(" "),
                        folder.display(),
                        first.join(" ")
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    let args = chosen.map(|(a, _)| a).unwrap_or_default();
    let sample = data.join("sample");
    if sample.is_dir() {
        let settings = testdata::settings_for(data, &sample, version, notes)?;
        if testdata::validator_args(&settings).unwrap_or_default() != args {
            notes.push(format!(
                "data/sample: judged with the secret data's validator arguments `{}`",
                args.join(" ")
            ));
        }
    }
    Ok(args)
}

/// Parts of a package that change every verdict's meaning: refused. Parts
/// that grundy can judge without: noted.
fn refuse_parts(
    dir: &Path,
    version: Version,
    interactive: bool,
    notes: &mut Vec<String>,
) -> Result<(), SpecError> {
    for (part, what) in [
        ("include", "`include/` (code added to every submission)"),
        ("graders", "`graders/` (custom grading of scoring problems)"),
    ] {
        if dir.join(part).exists() {
            return Err(unsupported(&dir.join(part), what));
        }
    }
    if dir.join("static_validator").exists() {
        notes.push("static_validator/: not run".into());
    }
    notes.extend(input_validators::find(dir).1);
    if dir.join("generators").is_dir() {
        notes.push("generators/: not run; the tests are those under data/".into());
    }
    if version == Version::Legacy && dir.join("output_validator").is_dir() {
        return Err(SpecError::Invalid {
            path: dir.join("output_validator"),
            message: "`output_validator/` belongs to the 2023-07 format: add `problem_format_version: 2023-07` to problem.yaml, or rename it `output_validators/` with `validation: custom`".into(),
        });
    }
    for entry in walkdir::WalkDir::new(dir.join("data"))
        .follow_root_links(false)
        .into_iter()
        .filter_map(Result::ok)
    {
        let ext = entry
            .path()
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        if ext == "interaction" && interactive {
            // A sample dialogue for the statement; the tests are the .in files.
            continue;
        }
        if ext == "interaction" {
            return Err(unsupported(
                entry.path(),
                "an interaction sample (interactive problems)",
            ));
        }
        if matches!(ext, "files" | "args") {
            return Err(unsupported(entry.path(), "this test data file"));
        }
        if entry.file_name() == "generators.yaml" {
            notes.push(format!(
                "{}: not run; the tests are the .in/.ans files present",
                entry
                    .path()
                    .strip_prefix(dir)
                    .unwrap_or(entry.path())
                    .display()
            ));
        }
    }
    Ok(())
}

/// The package's short name is its folder's name; it must be a valid id.
fn package_id(dir: &Path) -> Result<String, String> {
    let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let name = abs
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| "the package folder has no usable name".to_string())?;
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(name.to_string())
    } else {
        Err(format!(
            "the package folder name `{name}` is not a problem id: rename the folder to lowercase letters and digits"
        ))
    }
}

/// The statement file, if there is one grundy recognises.
fn statement(dir: &Path) -> Option<PathBuf> {
    ["problem_statement", "statement"]
        .iter()
        .flat_map(|folder| {
            [
                "problem.en.md",
                "problem.en.tex",
                "problem.md",
                "problem.tex",
            ]
            .map(|f| dir.join(folder).join(f))
        })
        .find(|p| p.is_file())
}

/// `name:` (a string, or a map by language with English preferred), else
/// the statement's `\problemname{…}`.
fn title(name: Option<&serde_yaml::Value>, statement: Option<&Path>) -> Option<String> {
    match name {
        Some(serde_yaml::Value::String(s)) => return Some(s.clone()),
        Some(serde_yaml::Value::Mapping(m)) => {
            let en = m.get("en").or_else(|| m.values().next());
            if let Some(s) = en.and_then(|v| v.as_str()) {
                return Some(s.to_string());
            }
        }
        _ => {}
    }
    let text = super::file::read_text(statement?).ok()?;
    let start = text.find("\\problemname{")? + "\\problemname{".len();
    let end = text[start..].find('}')?;
    Some(text[start..start + end].trim().to_string())
}

fn source_text(source: Option<&serde_yaml::Value>) -> String {
    match source {
        Some(serde_yaml::Value::String(s)) => s.clone(),
        Some(serde_yaml::Value::Sequence(v)) => v
            .iter()
            .filter_map(|s| {
                s.as_str()
                    .or_else(|| s.get("name").and_then(|n| n.as_str()))
            })
            .collect::<Vec<_>>()
            .join(", "),
        Some(serde_yaml::Value::Mapping(m)) => m
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    }
}
