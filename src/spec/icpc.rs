//! ICPC / Kattis problem packages (the `legacy` and `2023-07` versions of
//! the problem package format) loaded as a [`Problem`], so that `judge` and
//! `verify` take a package folder as they take one of ours.
//!
//! Which `problem.yaml` is which: a folder is read as a package when it has
//! a `data/` folder and its `problem.yaml` has neither of our keys `id` and
//! `groups` (see docs/icpc.md). Everything of a package that grundy cannot
//! judge with the format's meaning (interactive and scoring problems,
//! `include/`, graders, per-group validator flags, multi-file programs) is
//! refused with a message naming it, never ignored.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::{
    Bytes, CheckerSpec, Group, IcpcFlags, Limits, Problem, ProblemId, Sample, SpecError, TestSource,
};

/// The group name of tests directly under `data/secret/`.
pub const SECRET_GROUP: &str = "secret";

/// Extensions of the languages grundy builds (a validator or submission
/// with another one cannot be judged here).
const SOURCE_EXTENSIONS: [&str; 8] = ["c", "cpp", "cc", "cxx", "c++", "java", "py", "rs"];

/// The known-submission folders of the format that grundy can check; the
/// others (`partially_accepted`, `rejected`, …) belong to scoring problems
/// or to verdicts grundy does not have.
const VERDICT_FOLDERS: [&str; 8] = [
    "accepted",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
    "presentation_error",
    "memory_limit_exceeded",
    "output_limit_exceeded",
    "compile_error",
];

/// Whether `dir` holds an ICPC problem package rather than one of our specs:
/// a `data/` folder, and a `problem.yaml` without our `id` and `groups`.
pub fn is_package(dir: &Path) -> bool {
    let spec = dir.join(super::SPEC_FILE);
    if !spec.is_file() || !dir.join("data").is_dir() {
        return false;
    }
    let Ok(text) = std::fs::read_to_string(&spec) else {
        return false;
    };
    match serde_yaml::from_str::<serde_yaml::Value>(&text) {
        Ok(serde_yaml::Value::Mapping(m)) => !(m.contains_key("id") || m.contains_key("groups")),
        // An empty problem.yaml is a valid package (every key has a default).
        Ok(serde_yaml::Value::Null) => true,
        _ => false,
    }
}

/// The keys of `problem.yaml` in both versions of the format.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPackage {
    problem_format_version: Option<String>,
    #[serde(rename = "type")]
    kind: Option<serde_yaml::Value>,
    name: Option<serde_yaml::Value>,
    #[serde(default)]
    limits: RawLimits,
    validation: Option<String>,
    validator_flags: Option<String>,
    grading: Option<serde_yaml::Value>,
    source: Option<serde_yaml::Value>,
    // Metadata grundy does not use, accepted as the format defines it.
    #[allow(dead_code)]
    uuid: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    author: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    source_url: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    license: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    rights_owner: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    keywords: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    credits: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    version: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    embargo_until: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    languages: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    allow_file_writing: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    constants: Option<serde_yaml::Value>,
}

/// `limits:` of both versions; sizes in MiB, times in seconds.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    time_limit: Option<f64>,
    memory: Option<u64>,
    output: Option<u64>,
    // Used by judges to derive or pad the time limit from the accepted
    // submissions' run times; grundy needs a fixed limit (see `time_limit`).
    #[allow(dead_code)]
    time_multiplier: Option<f64>,
    #[allow(dead_code)]
    time_safety_margin: Option<f64>,
    #[allow(dead_code)]
    time_multipliers: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    time_resolution: Option<f64>,
    #[allow(dead_code)]
    code: Option<u64>,
    #[allow(dead_code)]
    compilation_time: Option<f64>,
    #[allow(dead_code)]
    compilation_memory: Option<u64>,
    #[allow(dead_code)]
    validation_time: Option<f64>,
    #[allow(dead_code)]
    validation_memory: Option<u64>,
    #[allow(dead_code)]
    validation_output: Option<u64>,
    #[allow(dead_code)]
    validation_passes: Option<u64>,
}

/// `testdata.yaml`: only what does not change a pass-fail problem's meaning.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTestdata {
    on_reject: Option<String>,
    grading: Option<String>,
    output_validator_flags: Option<String>,
    output_validator_args: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    input_validator_flags: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    input_validator_args: Option<serde_yaml::Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    Legacy,
    V2023,
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
    let version = match raw.problem_format_version.as_deref() {
        None | Some("legacy") => Version::Legacy,
        Some("2023-07" | "2023-07-draft") => Version::V2023,
        Some(other) => {
            return Err(invalid(format!(
                "problem_format_version `{other}` is not supported (grundy reads `legacy` and `2023-07`)"
            )));
        }
    };
    check_type(raw.kind.as_ref()).map_err(invalid)?;
    if raw.grading.is_some() {
        return Err(unsupported(spec, "`grading:` (scoring problems)"));
    }
    refuse_parts(&dir, version)?;
    check_submissions(&dir)?;
    let id = package_id(&dir).map_err(invalid)?;
    let testdata = read_testdata(&dir.join("data"))?;
    let checker = checker(&dir, spec, &raw, &testdata, version)?;
    let samples = samples(&dir)?;
    let groups = secret_groups(&dir)?;
    let limits = limits(&dir, &raw.limits).map_err(invalid)?;
    let statement = statement(&dir);
    let title = title(raw.name.as_ref(), statement.as_deref()).unwrap_or_else(|| id.clone());
    Ok(Problem {
        id: ProblemId(id),
        title,
        source: source_text(raw.source.as_ref()),
        dir: dir.clone(),
        spec_path: spec.to_path_buf(),
        statement,
        reference: first_accepted(&dir),
        seed: 1,
        limits,
        checker,
        interactor: None,
        samples,
        groups,
    })
}

fn unsupported(path: &Path, what: &str) -> SpecError {
    SpecError::Invalid {
        path: path.to_path_buf(),
        message: format!("{what} is not supported by grundy (docs/icpc.md lists what is)"),
    }
}

/// Only pass-fail problems: interactive, multi-pass, submit-answer and
/// scoring problems need judging modes grundy does not have.
fn check_type(kind: Option<&serde_yaml::Value>) -> Result<(), String> {
    let kinds: Vec<String> = match kind {
        None => return Ok(()),
        Some(serde_yaml::Value::String(s)) => vec![s.clone()],
        Some(serde_yaml::Value::Sequence(v)) => v
            .iter()
            .filter_map(|k| k.as_str().map(String::from))
            .collect(),
        Some(_) => return Err("`type` must be a string or a list of strings".into()),
    };
    match kinds.iter().find(|k| k.as_str() != "pass-fail") {
        None => Ok(()),
        Some(k) => Err(format!(
            "problem type `{k}` is not supported by grundy: it judges pass-fail problems only"
        )),
    }
}

/// Parts of a package whose meaning grundy cannot honour.
fn refuse_parts(dir: &Path, version: Version) -> Result<(), SpecError> {
    for (part, what) in [
        ("include", "`include/` (code added to every submission)"),
        ("graders", "`graders/` (custom grading of scoring problems)"),
        ("static_validator", "`static_validator/`"),
    ] {
        if dir.join(part).exists() {
            return Err(unsupported(&dir.join(part), what));
        }
    }
    if version == Version::Legacy && dir.join("output_validator").is_dir() {
        return Err(SpecError::Invalid {
            path: dir.join("output_validator"),
            message: "`output_validator/` belongs to the 2023-07 format: add `problem_format_version: 2023-07` to problem.yaml, or rename it `output_validators/` with `validation: custom`".into(),
        });
    }
    for entry in walkdir::WalkDir::new(dir.join("data"))
        .into_iter()
        .filter_map(Result::ok)
    {
        let ext = entry
            .path()
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        if ext == "interaction" {
            return Err(unsupported(
                entry.path(),
                "an interaction sample (interactive problems)",
            ));
        }
        if matches!(ext, "files" | "args")
            || entry
                .path()
                .file_name()
                .is_some_and(|n| n == "generators.yaml")
        {
            return Err(unsupported(entry.path(), "this test data file"));
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

/// `data/testdata.yaml`, and no other `testdata.yaml` that changes anything.
fn read_testdata(data: &Path) -> Result<RawTestdata, SpecError> {
    let mut root = RawTestdata::default();
    for entry in walkdir::WalkDir::new(data)
        .into_iter()
        .filter_map(Result::ok)
    {
        if entry.file_name() != "testdata.yaml" {
            continue;
        }
        let path = entry.path();
        let text = std::fs::read_to_string(path).map_err(|source| SpecError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let raw: RawTestdata = if text.trim().is_empty() {
            RawTestdata::default()
        } else {
            serde_yaml::from_str(&text).map_err(|e| super::yaml::yaml_error(path, &e))?
        };
        if raw.on_reject.as_deref().is_some_and(|r| r != "break") {
            return Err(unsupported(path, "`on_reject` other than `break`"));
        }
        if raw.grading.as_deref().is_some_and(|g| g != "default") {
            return Err(unsupported(path, "custom grading"));
        }
        let flags = raw.output_validator_flags.is_some() || raw.output_validator_args.is_some();
        if path.parent() == Some(data) {
            root = raw;
        } else if flags {
            return Err(unsupported(
                path,
                "output validator flags for one test group",
            ));
        }
    }
    Ok(root)
}

/// The default validator with its flags, or the package's own validator.
fn checker(
    dir: &Path,
    spec: &Path,
    raw: &RawPackage,
    testdata: &RawTestdata,
    version: Version,
) -> Result<CheckerSpec, SpecError> {
    let invalid = |message: String| SpecError::Invalid {
        path: spec.to_path_buf(),
        message,
    };
    let mut args: Vec<String> = raw
        .validator_flags
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    if let Some(f) = &testdata.output_validator_flags {
        args.extend(f.split_whitespace().map(String::from));
    }
    match &testdata.output_validator_args {
        None => {}
        Some(serde_yaml::Value::String(s)) => args.extend(s.split_whitespace().map(String::from)),
        Some(serde_yaml::Value::Sequence(v)) => {
            for a in v {
                match a {
                    serde_yaml::Value::String(s) => args.push(s.clone()),
                    serde_yaml::Value::Number(n) => args.push(n.to_string()),
                    _ => {
                        return Err(invalid(
                            "data/testdata.yaml: `output_validator_args` must be strings".into(),
                        ));
                    }
                }
            }
        }
        Some(_) => {
            return Err(invalid(
                "data/testdata.yaml: `output_validator_args` must be a list of strings".into(),
            ));
        }
    }
    let (custom, folder) = match version {
        Version::Legacy => {
            let words: Vec<&str> = raw
                .validation
                .as_deref()
                .unwrap_or("default")
                .split_whitespace()
                .collect();
            match words.as_slice() {
                ["default"] => (false, dir.join("output_validators")),
                ["custom"] => (true, dir.join("output_validators")),
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
        Version::V2023 => {
            if raw.validation.is_some() || raw.validator_flags.is_some() {
                return Err(invalid(
                    "`validation` and `validator_flags` are legacy keys: in the 2023-07 format the validator is `output_validator/` and its flags are `output_validator_args` in data/testdata.yaml".into(),
                ));
            }
            let folder = dir.join("output_validator");
            (folder.is_dir(), folder)
        }
    };
    if !custom {
        if folder.is_dir() && version == Version::Legacy {
            return Err(invalid(format!(
                "{} exists but `validation` is `default`: set `validation: custom` to use it, or remove the folder",
                folder.display()
            )));
        }
        return default_flags(&args)
            .map(CheckerSpec::IcpcDefault)
            .map_err(invalid);
    }
    let program = validator_program(&folder, version)?;
    let rel = program
        .strip_prefix(dir)
        .map(Path::to_path_buf)
        .unwrap_or(program);
    Ok(CheckerSpec::Icpc { program: rel, args })
}

/// Parses the default validator's flags.
fn default_flags(args: &[String]) -> Result<IcpcFlags, String> {
    let mut flags = IcpcFlags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = |what: &str| -> Result<f64, String> {
            let v = it
                .next()
                .ok_or_else(|| format!("validator flag `{what}` needs a number after it"))?;
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| {
                    format!("validator flag `{what}`: `{v}` is not a non-negative number")
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
                return Err(format!(
                    "unknown flag `{other}` for the default output validator (it takes case_sensitive, space_change_sensitive, float_tolerance E, float_relative_tolerance E, float_absolute_tolerance E)"
                ));
            }
        }
    }
    Ok(flags)
}

/// The one program of a validator folder: a single source file (directly in
/// `output_validators/` or in its own folder), or an executable `run`.
fn validator_program(folder: &Path, version: Version) -> Result<PathBuf, SpecError> {
    let missing = || SpecError::Invalid {
        path: folder.to_path_buf(),
        message: "`validation: custom` needs an output validator program here".into(),
    };
    let entries = visible_entries(folder).map_err(|_| missing())?;
    let program_dir = match version {
        Version::V2023 => folder.to_path_buf(),
        Version::Legacy => match entries.as_slice() {
            [] => return Err(missing()),
            [one] if one.is_file() => return source_file(one),
            [one] => one.clone(),
            many => {
                return Err(SpecError::Invalid {
                    path: folder.to_path_buf(),
                    message: format!(
                        "{} output validators found: grundy runs exactly one (keep one file or folder here)",
                        many.len()
                    ),
                });
            }
        },
    };
    if program_dir.join("build").exists() {
        return Err(unsupported(
            &program_dir.join("build"),
            "a validator `build` script",
        ));
    }
    if program_dir.join("run").is_file() {
        return Ok(program_dir.join("run"));
    }
    let files = visible_entries(&program_dir).map_err(|_| missing())?;
    match files.as_slice() {
        [one] if one.is_file() => source_file(one),
        [] => Err(missing()),
        _ => Err(unsupported(
            &program_dir,
            "an output validator made of several files (grundy builds a single source file, or runs an executable `run`)",
        )),
    }
}

fn source_file(path: &Path) -> Result<PathBuf, SpecError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if SOURCE_EXTENSIONS.contains(&ext.as_str()) {
        Ok(path.to_path_buf())
    } else {
        Err(SpecError::Invalid {
            path: path.to_path_buf(),
            message: format!(
                "grundy cannot build this validator: use a single source file ending in .{}",
                SOURCE_EXTENSIONS.join(", .")
            ),
        })
    }
}

/// The entries of a folder, sorted, without hidden files.
fn visible_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    v.sort();
    Ok(v)
}

/// `data/sample/**/*.in` with their `.ans`, in name order.
fn samples(dir: &Path) -> Result<Vec<Sample>, SpecError> {
    let folder = dir.join("data").join("sample");
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (input, answer) in test_pairs(&folder, true)? {
        let read = |p: &Path| -> Result<String, SpecError> {
            let bytes = std::fs::read(p).map_err(|source| SpecError::Read {
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

/// The `.in` files of a folder (recursively or not) with their `.ans`.
fn test_pairs(folder: &Path, recursive: bool) -> Result<Vec<(PathBuf, PathBuf)>, SpecError> {
    let depth = if recursive { usize::MAX } else { 1 };
    let mut inputs: Vec<PathBuf> = walkdir::WalkDir::new(folder)
        .max_depth(depth)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "in"))
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

/// `data/secret/`: its own test cases form the group `secret`, each subfolder
/// (test data group) a group named after its path, all worth the same.
fn secret_groups(dir: &Path) -> Result<Vec<Group>, SpecError> {
    let secret = dir.join("data").join("secret");
    if !secret.is_dir() {
        return Err(SpecError::Invalid {
            path: secret,
            message: "a package needs secret test data: add data/secret/<name>.in and <name>.ans"
                .into(),
        });
    }
    let mut folders: Vec<(String, PathBuf)> = walkdir::WalkDir::new(&secret)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
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
    let mut groups: Vec<Group> = Vec::new();
    for (name, folder) in folders {
        let tests: Vec<TestSource> = test_pairs(&folder, false)?
            .into_iter()
            .map(|(input, answer)| TestSource::File {
                input: input
                    .strip_prefix(dir)
                    .map(Path::to_path_buf)
                    .unwrap_or(input),
                answer: Some(
                    answer
                        .strip_prefix(dir)
                        .map(Path::to_path_buf)
                        .unwrap_or(answer),
                ),
            })
            .collect();
        if tests.is_empty() {
            continue;
        }
        if groups.iter().any(|g| g.name == name) {
            return Err(SpecError::Invalid {
                path: folder,
                message: format!(
                    "two test data groups both become the group `{name}`: rename one folder"
                ),
            });
        }
        groups.push(Group {
            name,
            points: 1.0,
            tests,
        });
    }
    if groups.is_empty() {
        return Err(SpecError::Invalid {
            path: secret,
            message: "no test cases: add <name>.in and <name>.ans files".into(),
        });
    }
    Ok(groups)
}

/// `group1/sub` becomes `group1-sub`; characters our group names do not
/// allow become `-`.
fn group_name(rel: &Path) -> String {
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

/// The limits: memory and output in MiB; the time limit from `time_limit`
/// (2023-07), else the `.timelimit` file judges such as DOMjudge write, else
/// grundy's default of 1 s.
fn limits(dir: &Path, raw: &RawLimits) -> Result<Limits, String> {
    let mut limits = Limits::default();
    if let Some(m) = raw.memory {
        if m == 0 {
            return Err("limits.memory must be at least 1 (MiB)".into());
        }
        limits.memory = Bytes::mib(m);
    }
    if let Some(o) = raw.output {
        if o == 0 {
            return Err("limits.output must be at least 1 (MiB)".into());
        }
        limits.output = Bytes::mib(o);
    }
    let seconds = match raw.time_limit {
        Some(t) => Some(t),
        None => timelimit_file(dir)?,
    };
    if let Some(t) = seconds {
        if !(t.is_finite() && t > 0.0 && t <= 3600.0) {
            return Err(format!(
                "the time limit must be between 0 and 3600 seconds, found {t}"
            ));
        }
        limits.time = Duration::from_secs_f64(t);
    }
    Ok(limits)
}

fn timelimit_file(dir: &Path) -> Result<Option<f64>, String> {
    let path = dir.join(".timelimit");
    match std::fs::read_to_string(&path) {
        Err(_) => Ok(None),
        Ok(text) => text.trim().parse::<f64>().map(Some).map_err(|_| {
            format!(
                "{}: expected a number of seconds, found `{}`",
                path.display(),
                text.trim()
            )
        }),
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
    let text = std::fs::read_to_string(statement?).ok()?;
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

/// The first accepted submission in name order: the package's reference,
/// used where our specs use `reference/<id>.rs` (answers come from `.ans`).
fn first_accepted(dir: &Path) -> Option<PathBuf> {
    visible_entries(&dir.join("submissions").join("accepted"))
        .ok()?
        .into_iter()
        .find(|p| p.is_file())
}

/// Every entry of `submissions/` must be one grundy checks: a known verdict
/// folder holding single files, so that `verify` never skips one silently.
fn check_submissions(dir: &Path) -> Result<(), SpecError> {
    let root = dir.join("submissions");
    let Ok(folders) = visible_entries(&root) else {
        return Ok(());
    };
    for folder in folders {
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !folder.is_dir() || !VERDICT_FOLDERS.contains(&name.as_str()) {
            return Err(SpecError::Invalid {
                path: folder.clone(),
                message: format!(
                    "not a verdict folder grundy checks (known: {}); move the submissions into one of them",
                    VERDICT_FOLDERS.join(", ")
                ),
            });
        }
        for sub in visible_entries(&folder).unwrap_or_default() {
            if sub.is_dir() {
                return Err(unsupported(&sub, "a submission made of several files"));
            }
        }
    }
    Ok(())
}
