//! `data/`: the samples, the secret test groups, and the settings files
//! (`testdata.yaml`, `test_group.yaml` in 2025-09) inherited down the tree.

use std::path::{Path, PathBuf};

use super::constants::Constants;
use super::schema::{RawTestdata, Version};
use crate::problem::{Group, Sample, SpecError, TestSource};

/// The group name of tests directly under `data/secret/`.
pub const SECRET_GROUP: &str = "secret";

/// The settings file names a folder of `data/` may hold, per version.
fn settings_files(version: Version) -> &'static [&'static str] {
    match version {
        Version::V2025 => &["test_group.yaml", "testdata.yaml"],
        _ => &["testdata.yaml"],
    }
}

/// The settings in force in `folder` (under `data`): every settings file
/// from `data/` down to `folder`, a key set lower overriding the same key
/// set higher, as the format defines the inheritance. `constants` are the
/// package's, as the loader read them from its `problem.yaml` (read once).
pub fn settings_for(
    data: &Path,
    folder: &Path,
    version: Version,
    constants: &Constants,
    notes: &mut Vec<String>,
) -> Result<RawTestdata, SpecError> {
    let mut chain = vec![data.to_path_buf()];
    if let Ok(rel) = folder.strip_prefix(data) {
        let mut at = data.to_path_buf();
        for c in rel.components() {
            at = at.join(c);
            chain.push(at.clone());
        }
    }
    let mut merged = RawTestdata::default();
    for dir in chain {
        for name in settings_files(version) {
            let path = dir.join(name);
            if !path.is_file() {
                continue;
            }
            let text =
                crate::problem::file::read_text(&path).map_err(|source| SpecError::Read {
                    path: path.clone(),
                    source,
                })?;
            let text =
                constants
                    .substitute_strict(&text, &path)
                    .map_err(|e| SpecError::Refused {
                        path: path.clone(),
                        source: e.into(),
                    })?;
            let raw: RawTestdata = if text.trim().is_empty() {
                RawTestdata::default()
            } else {
                crate::problem::yaml::from_yaml(&path, &text)?
            };
            if raw.on_reject.as_deref().is_some_and(|r| r != "break") {
                note_once(
                    notes,
                    format!(
                        "{}: `on_reject: {}` not used: a pass-fail verdict is the first failing test's either way",
                        path.display(),
                        raw.on_reject.as_deref().unwrap_or("")
                    ),
                );
            }
            if raw.grading.is_some() {
                note_once(
                    notes,
                    format!("{}: `grading` not used (pass-fail problem)", path.display()),
                );
            }
            for key in raw.other.keys() {
                note_once(notes, format!("{}: `{key}` not used", path.display()));
            }
            merged = merge(merged, raw);
        }
    }
    Ok(merged)
}

fn note_once(notes: &mut Vec<String>, note: String) {
    if !notes.contains(&note) {
        notes.push(note);
    }
}

pub fn merge(parent: RawTestdata, child: RawTestdata) -> RawTestdata {
    RawTestdata {
        on_reject: child.on_reject.or(parent.on_reject),
        grading: child.grading.or(parent.grading),
        output_validator_flags: child
            .output_validator_flags
            .or(parent.output_validator_flags),
        output_validator_args: child.output_validator_args.or(parent.output_validator_args),
        input_validator_flags: child.input_validator_flags.or(parent.input_validator_flags),
        input_validator_args: child.input_validator_args.or(parent.input_validator_args),
        accept_score: child.accept_score.or(parent.accept_score),
        reject_score: child.reject_score.or(parent.reject_score),
        grader_flags: child.grader_flags.or(parent.grader_flags),
        range: child.range.or(parent.range),
        // 2025-09's scoring keys belong to the folder that states them.
        max_score: child.max_score,
        score_aggregation: child.score_aggregation,
        require_pass: child.require_pass,
        other: Default::default(),
    }
}

/// Why a settings file's `output_validator_args` cannot be used.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidatorArgsError {
    /// A list with an item that is neither a string nor a number.
    #[error("`output_validator_args` must be strings")]
    Item,
    /// Neither a string nor a list.
    #[error("`output_validator_args` must be a list of strings")]
    Shape,
}

/// The output validator arguments a settings file gives: legacy
/// `output_validator_flags` (a string) and `output_validator_args` (a
/// string or a list).
pub fn validator_args(raw: &RawTestdata) -> Result<Vec<String>, ValidatorArgsError> {
    let mut args: Vec<String> = raw
        .output_validator_flags
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    match &raw.output_validator_args {
        None => {}
        Some(serde_yaml::Value::String(s)) => args.extend(s.split_whitespace().map(String::from)),
        Some(serde_yaml::Value::Sequence(v)) => {
            for a in v {
                match a {
                    serde_yaml::Value::String(s) => args.push(s.clone()),
                    serde_yaml::Value::Number(n) => args.push(n.to_string()),
                    _ => return Err(ValidatorArgsError::Item),
                }
            }
        }
        Some(_) => return Err(ValidatorArgsError::Shape),
    }
    Ok(args)
}

/// The arguments the input validator called `name` (its file stem or
/// folder name) gets under these settings: legacy `input_validator_flags`
/// for every validator, `input_validator_args` as a string or list for
/// every validator, or as a map from validator names to their own.
pub fn input_validator_args(raw: &RawTestdata, name: &str) -> Vec<String> {
    fn words(v: &serde_yaml::Value) -> Vec<String> {
        match v {
            serde_yaml::Value::String(s) => s.split_whitespace().map(String::from).collect(),
            serde_yaml::Value::Sequence(items) => items
                .iter()
                .filter_map(|i| match i {
                    serde_yaml::Value::String(s) => Some(s.clone()),
                    serde_yaml::Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }
    let mut args: Vec<String> = raw
        .input_validator_flags
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    match &raw.input_validator_args {
        Some(serde_yaml::Value::Mapping(m)) => {
            if let Some(v) = m.get(name) {
                args.extend(words(v));
            }
        }
        Some(v) => args.extend(words(v)),
        None => {}
    }
    args
}

/// `data/sample/**/*.in` with their `.ans`, in name order.
pub fn samples(dir: &Path) -> Result<Vec<Sample>, SpecError> {
    let folder = dir.join("data").join("sample");
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (input, answer) in test_pairs(&folder, true)? {
        let read = |p: &Path| -> Result<String, SpecError> {
            let bytes =
                crate::problem::file::read_regular(p).map_err(|source| SpecError::Read {
                    path: p.to_path_buf(),
                    source,
                })?;
            String::from_utf8(bytes).map_err(|_| SpecError::Invalid {
                path: p.to_path_buf(),
                message: "a sample must be UTF-8 text".into(),
            })
        };
        out.push(Sample {
            input: read(&input)?,
            output: read(&answer)?,
        });
    }
    Ok(out)
}

/// The inputs of `data/sample/**/*.in`, in the order of [`samples`].
pub fn sample_files(dir: &Path) -> Result<Vec<PathBuf>, SpecError> {
    let folder = dir.join("data").join("sample");
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    Ok(test_pairs(&folder, true)?
        .into_iter()
        .map(|(input, _)| input)
        .collect())
}

/// Whether the walked entry `e` is a test's input: anything named `.in`
/// but a folder. A link is read beneath the package (packages link tests
/// between groups; one that leaves the package is an error naming it),
/// and a FIFO, device or socket so named is an error naming it, never a
/// test silently left out.
pub fn is_test_input(e: &walkdir::DirEntry) -> bool {
    !e.file_type().is_dir() && e.path().extension().is_some_and(|x| x == "in")
}

/// Every entry under `folder` (to `depth`), links followed where they
/// stay inside the package `root`: packages link tests, and whole
/// folders of tests, into later groups (a test counts in every group that
/// holds it). A link that leaves the package, a loop of links or a folder
/// that cannot be read is an error naming it: a test is never left out
/// without a word.
pub fn walk_data(
    root: &Path,
    folder: &Path,
    depth: usize,
) -> Result<Vec<walkdir::DirEntry>, SpecError> {
    let real_root = std::fs::canonicalize(root).map_err(|source| SpecError::Read {
        path: root.to_path_buf(),
        source,
    })?;
    let outside = std::cell::RefCell::new(None::<PathBuf>);
    let mut entries = Vec::new();
    let walk = walkdir::WalkDir::new(folder)
        .follow_links(true)
        .max_depth(depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            if !e.path_is_symlink() {
                return true;
            }
            // A link that names nothing is kept: reading it says so.
            match std::fs::canonicalize(e.path()) {
                Ok(real) if !real.starts_with(&real_root) => {
                    outside.borrow_mut().get_or_insert(e.path().to_path_buf());
                    false
                }
                _ => true,
            }
        });
    for e in walk {
        match e {
            Ok(e) => entries.push(e),
            // A dangling link: left to the read, which names it.
            Err(err)
                if err
                    .io_error()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound) =>
            {
                if let Some(path) = err.path() {
                    entries.extend(
                        walkdir::WalkDir::new(path)
                            .max_depth(0)
                            .into_iter()
                            .filter_map(Result::ok),
                    );
                }
            }
            Err(err) => {
                let path = err.path().unwrap_or(folder).to_path_buf();
                let message = if err.loop_ancestor().is_some() {
                    "a link here leads back into a folder above it (a loop): point it at the tests, not at a folder holding it".to_string()
                } else {
                    format!("cannot read: {err}")
                };
                return Err(SpecError::Invalid { path, message });
            }
        }
    }
    if let Some(link) = outside.into_inner() {
        let target = std::fs::read_link(&link)
            .map(|t| t.display().to_string())
            .unwrap_or_else(|_| "(unreadable)".into());
        return Err(SpecError::Invalid {
            message: format!(
                "{} is a link to {target}, outside the package: only links that stay inside it are followed; copy the tests into the package instead",
                link.strip_prefix(root).unwrap_or(&link).display()
            ),
            path: root.to_path_buf(),
        });
    }
    Ok(entries)
}

/// The `.in` files of a folder (recursively or not) with their `.ans`.
fn test_pairs(folder: &Path, recursive: bool) -> Result<Vec<(PathBuf, PathBuf)>, SpecError> {
    let depth = if recursive { usize::MAX } else { 1 };
    let root = package_of(folder);
    let mut inputs: Vec<PathBuf> = walk_data(&root, folder, depth)?
        .into_iter()
        .filter(is_test_input)
        .map(|e| e.into_path())
        .collect();
    inputs.sort();
    inputs
        .into_iter()
        .map(|input| {
            let answer = input.with_extension("ans");
            if answer.is_file() {
                Ok((input, answer))
            } else {
                Err(SpecError::Invalid {
                    path: input.clone(),
                    message: format!("no answer file: expected {} next to it", answer.display()),
                })
            }
        })
        .collect()
}

/// A secret test group and the folder it comes from.
pub struct SecretGroup {
    pub group: Group,
    pub folder: PathBuf,
}

/// `data/secret/`: its own test cases form the group `secret`, each subfolder
/// (test data group) a group named after its path, all worth the same.
pub fn secret_groups(dir: &Path) -> Result<Vec<SecretGroup>, SpecError> {
    let secret = dir.join("data").join("secret");
    // No secret data: judged on the samples, or (no tests at all, as in a
    // package still being written) loaded with nothing to judge, which
    // `verify` and `judge` say (see `has_no_tests`).
    if !secret.is_dir() {
        return Ok(Vec::new());
    }
    let mut folders: Vec<(String, PathBuf)> = walk_data(dir, &secret, usize::MAX)?
        .into_iter()
        .filter(|e| e.file_type().is_dir())
        .map(|e| {
            let rel = e.path().strip_prefix(&secret).unwrap_or(Path::new(""));
            let name = if rel.as_os_str().is_empty() {
                SECRET_GROUP.to_string()
            } else {
                group_name(rel)
            };
            (name, e.into_path())
        })
        .collect();
    // Root first, then the subgroups in name order (the format's order).
    folders.sort_by(|a, b| (a.1 != secret, &a.1).cmp(&(b.1 != secret, &b.1)));
    let mut groups: Vec<SecretGroup> = Vec::new();
    for (name, folder) in folders {
        let rel = |p: PathBuf| p.strip_prefix(dir).map(Path::to_path_buf).unwrap_or(p);
        let tests: Vec<TestSource> = test_pairs(&folder, false)?
            .into_iter()
            .map(|(input, answer)| TestSource::File {
                input: rel(input),
                answer: Some(rel(answer)),
            })
            .collect();
        if tests.is_empty() {
            continue;
        }
        if groups.iter().any(|g| g.group.name == name) {
            return Err(SpecError::Invalid {
                path: folder,
                message: format!(
                    "two test data groups both become the group `{name}`: rename one folder"
                ),
            });
        }
        groups.push(SecretGroup {
            group: Group {
                name,
                points: 1.0,
                tests,
            },
            folder,
        });
    }
    Ok(groups)
}

/// The package a folder of `data/` belongs to: the folder above `data/`.
fn package_of(folder: &Path) -> PathBuf {
    folder
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "data"))
        .and_then(Path::parent)
        .unwrap_or(folder)
        .to_path_buf()
}

/// `group1/sub` becomes `group1-sub`; characters our group names do not
/// allow become `-`.
pub fn group_name(rel: &Path) -> String {
    let joined = rel.to_string_lossy().replace('/', "-");
    let clean: String = joined
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if clean == "sample" {
        "sample-secret".into()
    } else {
        clean
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

    /// The validator arguments in force for folder `rel` of `data`, read
    /// as a package of `version` without constants.
    fn args_in(data: &Path, rel: &str, version: Version) -> Vec<String> {
        let s = settings_for(
            data,
            &data.join(rel),
            version,
            &Constants::default(),
            &mut Vec::new(),
        )
        .expect("settings");
        validator_args(&s).expect("args")
    }

    #[test]
    fn settings_are_inherited_and_overridden_down_the_tree() {
        let d = tempfile::tempdir().expect("tempdir");
        let data = d.path().join("data");
        write(
            &data,
            "testdata.yaml",
            "output_validator_args: [case_sensitive]\n",
        );
        write(
            &data,
            "secret/testdata.yaml",
            "output_validator_args: [float_tolerance, \"1e-6\"]\n",
        );
        write(&data, "secret/g1/x.in", "");
        assert_eq!(
            args_in(&data, "secret/g1", Version::V2023),
            ["float_tolerance", "1e-6"]
        );
        assert_eq!(args_in(&data, "sample", Version::V2023), ["case_sensitive"]);
    }

    #[test]
    fn test_group_yaml_is_read_in_2025_09_only() {
        let d = tempfile::tempdir().expect("tempdir");
        let data = d.path().join("data");
        write(
            &data,
            "secret/test_group.yaml",
            "output_validator_args: [case_sensitive]\n",
        );
        assert_eq!(args_in(&data, "secret", Version::V2025), ["case_sensitive"]);
        assert!(args_in(&data, "secret", Version::V2023).is_empty());
    }

    #[test]
    fn groups_are_named_after_their_folders() {
        assert_eq!(group_name(Path::new("group1/sub")), "group1-sub");
        assert_eq!(group_name(Path::new("a b")), "a-b");
        assert_eq!(group_name(Path::new("sample")), "sample-secret");
    }

    #[test]
    fn a_package_without_tests_has_no_groups() {
        let d = tempfile::tempdir().expect("tempdir");
        assert!(secret_groups(d.path()).expect("no data/").is_empty());
        std::fs::create_dir_all(d.path().join("data/secret/g")).expect("mkdir");
        assert!(secret_groups(d.path()).expect("empty").is_empty());
    }

    #[test]
    fn an_input_without_its_answer_is_named() {
        let d = tempfile::tempdir().expect("tempdir");
        write(d.path(), "data/secret/1.in", "1\n");
        let e = secret_groups(d.path()).err().expect("refused").to_string();
        assert!(e.contains("1.ans"), "{e}");
    }

    #[test]
    fn validator_arguments_of_another_shape_are_refused() {
        let raw = |y: &str| -> RawTestdata { serde_yaml::from_str(y).expect("yaml") };
        let e = validator_args(&raw("output_validator_args: [a, [b]]\n")).expect_err("a list");
        assert_eq!(e.to_string(), "`output_validator_args` must be strings");
        let e = validator_args(&raw("output_validator_args: {a: b}\n")).expect_err("a map");
        assert_eq!(
            e.to_string(),
            "`output_validator_args` must be a list of strings"
        );
    }
}
