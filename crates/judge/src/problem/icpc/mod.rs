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

mod constants;
mod domjudge;
mod expectations;
mod facts;
mod generated;
mod generators;
mod input_validators;
mod interactor;
mod limits;
mod multipass;
mod paths;
mod schema;
mod scoring;
mod stage;
mod submissions;
mod test_yaml;
mod testdata;
mod validators;

use std::path::{Path, PathBuf};

use super::{Problem, ProblemId, SpecError};
use schema::{RawPackage, Version};
use validators::unsupported;

use crate::problem::expected::{Code, Expectations};
pub use scoring::package_score;
pub use stage::stage;

/// A statement's text as the format shows it: in a package with
/// `constants:`, `{{name}}` (Markdown) or `\constant{name}` (LaTeX)
/// replaced by the value; any other statement as written.
pub fn statement_text(problem: &Problem, text: String, latex: bool) -> String {
    match &problem.package {
        Some(p) => constants::Constants::in_statement(&p.constants, text, latex),
        None => text,
    }
}

/// Whether `dir` holds an ICPC problem package rather than one of our specs:
/// a `problem.yaml` without our `id` and `groups`, with a `data/` folder
/// (or BAPCtools' `generators/generators.yaml`) or a `problem_format_version`.
/// `text` is its `problem.yaml`, which the loader has read already.
pub fn is_package_spec(dir: &Path, text: &str) -> bool {
    // BAPCtools packages may hold no data/ yet, only generators.yaml; and
    // our specs never declare a format version.
    let tests = dir.join("data").is_dir() || dir.join("generators/generators.yaml").is_file();
    // Without tests, only a format version makes a package: a spec that
    // cannot name one is not parsed here (the loader parses it next).
    if !tests && !text.contains("problem_format_version") {
        return false;
    }
    let spec = dir.join(super::SPEC_FILE);
    match crate::yaml::from_str::<serde_yaml::Value>(&spec, text) {
        Ok(serde_yaml::Value::Mapping(m)) => {
            !(m.contains_key("id") || m.contains_key("groups"))
                && (tests || m.contains_key("problem_format_version"))
        }
        // An empty problem.yaml is a valid package (every key has a default).
        Ok(serde_yaml::Value::Null) => tests,
        _ => false,
    }
}

/// The note of a package with no test data at all (a package still being
/// written, or one that only checks its `problem.yaml`): loaded, so that
/// `verify` checks what can be checked; nothing can be judged.
pub const NO_TESTS: &str = "no test data at all (no tests under data/, none from generators.yaml): nothing to judge; submissions are not run";

/// Loads the package in `dir` (whose `problem.yaml` is `spec`).
pub fn load(spec: &Path, text: &str) -> Result<Problem, SpecError> {
    let dir = spec.parent().unwrap_or(Path::new(".")).to_path_buf();
    // Each part of the package refuses with its own error; the spec
    // error names problem.yaml and keeps the refusal's message.
    let invalid = |e: &dyn std::fmt::Display| SpecError::Invalid {
        path: spec.to_path_buf(),
        message: e.to_string(),
    };
    let raw: RawPackage = if text.trim().is_empty() {
        RawPackage::default()
    } else {
        super::yaml::from_yaml(spec, text)?
    };
    let version = Version::parse(raw.problem_format_version.as_deref()).map_err(|e| invalid(&e))?;
    let interactive = interactor::is_interactive(&raw).map_err(|e| invalid(&e))?;
    let scoring = scoring::is_scoring(&raw);
    let constants = constants::Constants::read(&raw).map_err(|e| invalid(&e))?;
    let mut notes: Vec<String> = raw
        .unknown_keys()
        .into_iter()
        .map(|k| format!("problem.yaml: `{k}` not used"))
        .collect();
    if !scoring && (raw.grading.is_some() || dir.join("graders").exists()) {
        notes.push("`grading:` and `graders/` not used: a pass-fail problem".into());
    }
    let passes = multipass::passes(&raw, &mut notes).map_err(|e| invalid(&e))?;
    // Sample dialogues (`.interaction`) belong to both kinds.
    let (input_validators, validator_notes) = input_validators::find(&dir);
    refuse_parts(
        &dir,
        version,
        interactive || passes.is_some(),
        validator_notes,
        &mut notes,
    )?;
    let expected = expectations::load(&dir, scoring, &mut notes).map_err(|e| match e {
        expectations::ExpectationsError::Located(y) => super::yaml::located(y),
        e => SpecError::Refused {
            path: dir.join("submissions").join("submissions.yaml"),
            source: e.into(),
        },
    })?;
    notes.extend(submissions::notes(&dir, expected.as_ref()));
    let id = package_id(&dir).map_err(|e| invalid(&e))?;
    if id.contains('-') {
        // grundy's own ids have dashes; the format's short names do not.
        notes.push(format!(
            "the package folder name `{id}` is not a short name the format allows (`[a-z0-9]+`): grundy reads it as the problem id, problemtools' verifyproblem refuses it (\"Invalid shortname\"); name the folder `{}`",
            id.replace('-', "")
        ));
    }
    let data = dir.join("data");
    let made = generated::read(&dir, &constants, &mut notes)?;
    let (secret, args, generated_samples) = match &made {
        Some(plan) => {
            let (groups, args) = generated::secret(plan, spec, &mut notes)?;
            (groups, args, Some(generated::samples(&dir, plan)))
        }
        None => {
            let mut secret = testdata::secret_groups(&dir)?;
            let args = secret_validator_args(&data, &mut secret, version, &constants, &mut notes)?;
            if test_yaml::read_in(version) {
                own_test_settings(&dir, &mut secret, version, &constants, &args, &mut notes)?;
            }
            (secret, args, None)
        }
    };
    let secret = if scoring {
        let keys = match &made {
            Some(plan) => scoring::Keys::Plan(plan),
            None => scoring::Keys::Data(&constants),
        };
        scoring::apply(&dir, &raw, version, keys, secret, &mut notes)?
    } else {
        secret
    };
    let no_secret = secret.is_empty();
    let (samples, sample_group) = match generated_samples {
        Some(pair) => pair,
        None => (testdata::samples(&dir)?, None),
    };
    let no_tests = no_secret && samples.is_empty() && sample_group.is_none();
    if no_tests {
        notes.push(NO_TESTS.into());
    } else if no_secret {
        notes.push("data/secret/: no test cases; judged on the samples only".into());
    }
    let (checker, interactor) = if interactive {
        let i = interactor::interactor(&dir, spec, &raw, args, version)?;
        (super::CheckerSpec::Tokens, Some(i))
    } else {
        match validators::checker(&dir, spec, &raw, args, version) {
            Ok(c) => (c, None),
            // With no test to run it on, a validator still to be written
            // stops nothing: said, and the rest is checked.
            Err(e) if no_tests => {
                notes.push(format!("output validator not used (no tests): {e}"));
                (super::CheckerSpec::Tokens, None)
            }
            Err(e) => return Err(e),
        }
    };
    let reference = made
        .as_ref()
        .and_then(|p| p.solution.as_ref())
        .map(|s| dir.join(s))
        .filter(|p| p.exists())
        .or_else(|| submissions::first_accepted(&dir))
        .filter(|r| is_model(&dir, r, expected.as_ref()));
    let ini = domjudge::read(&dir).map_err(|e| SpecError::Invalid {
        path: dir.join(domjudge::FILE),
        message: e.to_string(),
    })?;
    if let Some(ini) = &ini
        && !ini.unused.is_empty()
    {
        notes.push(format!(
            "{}: {} not used (DOMjudge's own settings: they change no verdict)",
            domjudge::FILE,
            ini.unused
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let limits =
        limits::limits(&dir, &raw.limits, ini.as_ref(), &mut notes).map_err(|e| invalid(&e))?;
    let time_rule =
        limits::time_rule(&dir, &raw.limits, ini.as_ref(), version).map_err(|e| invalid(&e))?;
    let tle_margin = limits::tle_margin(&raw.limits, version).map_err(|e| invalid(&e))?;
    let statement = statement(&dir);
    let title = title(raw.name.as_ref(), statement.as_deref())
        .or_else(|| ini.as_ref().and_then(|i| i.name.clone()))
        .unwrap_or_else(|| id.clone());
    let mut problem = Problem {
        id: ProblemId(id),
        title,
        source: source_text(raw.source.as_ref()),
        dir: dir.clone(),
        spec_path: spec.to_path_buf(),
        statement,
        reference,
        seed: 1,
        limits,
        checker,
        interactor,
        passes,
        samples,
        groups: sample_group
            .into_iter()
            .chain(secret.into_iter().map(|g| g.group))
            .collect(),
        // A package's validators live in `input_validators/` (read there).
        input_validators: Vec::new(),
        input_validator_args: Default::default(),
        time_rule,
        tle_margin: Some(tle_margin),
        scoring,
        notes,
        game: None,
        package: None,
    };
    problem.package = Some(facts::fill(
        &problem,
        version,
        made.as_ref(),
        expected,
        input_validators,
        constants.into_map(),
    ));
    Ok(problem)
}

/// Whether `reference` may be the reference: `submissions.yaml` may say
/// that a file under `accepted/` is not accepted at all (its rules then
/// permit other verdicts than AC); the answers are the `.ans` files then.
fn is_model(dir: &Path, reference: &Path, expected: Option<&Expectations>) -> bool {
    let (Some(e), Ok(rel)) = (expected, reference.strip_prefix(dir.join("submissions"))) else {
        return true;
    };
    e.rules_for(&rel.to_string_lossy()).iter().all(|r| {
        r.permitted
            .as_ref()
            .is_none_or(|p| p.iter().all(|c| *c == Code::AC))
    })
}

/// The output validator arguments in force for the secret data, inherited
/// down the test-data tree. grundy has one checker per problem: the secret
/// groups must agree; samples with other arguments are judged with these,
/// and a note says so.
fn secret_validator_args(
    data: &Path,
    secret: &mut Vec<testdata::SecretGroup>,
    version: Version,
    constants: &constants::Constants,
    notes: &mut Vec<String>,
) -> Result<Vec<String>, SpecError> {
    let mut chosen: Option<(Vec<String>, PathBuf)> = None;
    let mut kept = Vec::new();
    for g in secret.drain(..) {
        let settings = testdata::settings_for(data, &g.folder, version, constants, notes)?;
        let args = testdata::validator_args(&settings).map_err(|e| SpecError::Refused {
            path: g.folder.clone(),
            source: e.into(),
        })?;
        match &chosen {
            None => chosen = Some((args, g.folder.clone())),
            Some((first, folder)) if *first != args => {
                // One checker per problem: the group that disagrees with
                // the first is left out, said, and the rest is judged.
                notes.push(format!(
                    "{}: skipped: its output validator arguments `{}` differ from those of {} (`{}`), and grundy judges a problem with one validator setting",
                    g.folder.display(),
                    args.join(" "),
                    folder.display(),
                    first.join(" ")
                ));
                continue;
            }
            Some(_) => {}
        }
        kept.push(g);
    }
    *secret = kept;
    let sample = data.join("sample");
    // With no secret tests, the samples' own settings are the problem's.
    if chosen.is_none() && sample.is_dir() {
        let settings = testdata::settings_for(data, &sample, version, constants, notes)?;
        let args = testdata::validator_args(&settings).map_err(|e| SpecError::Refused {
            path: sample.clone(),
            source: e.into(),
        })?;
        chosen = Some((args, sample.clone()));
    }
    let args = chosen.map(|(a, _)| a).unwrap_or_default();
    if sample.is_dir() {
        let settings = testdata::settings_for(data, &sample, version, constants, notes)?;
        if testdata::validator_args(&settings).unwrap_or_default() != args {
            notes.push(format!(
                "data/sample: judged with the secret data's validator arguments `{}`",
                args.join(" ")
            ));
        }
    }
    Ok(args)
}

/// Takes out the tests of `secret` whose own `<test>.yaml` asks for what
/// grundy cannot give them (other output validator arguments than
/// `args`, arguments to the submission), each with a note.
fn own_test_settings(
    dir: &Path,
    secret: &mut Vec<testdata::SecretGroup>,
    version: Version,
    constants: &constants::Constants,
    args: &[String],
    notes: &mut Vec<String>,
) -> Result<(), SpecError> {
    let data = dir.join("data");
    let mut quiet = Vec::new();
    for g in secret.iter_mut() {
        let folder = testdata::settings_for(&data, &g.folder, version, constants, &mut quiet)?;
        test_yaml::retain_files(dir, &mut g.group.tests, &folder, args, notes)?;
    }
    secret.retain(|g| !g.group.tests.is_empty());
    Ok(())
}

/// Parts of a package that change every verdict's meaning: refused. Parts
/// that grundy can judge without: noted.
fn refuse_parts(
    dir: &Path,
    version: Version,
    interactive: bool,
    validator_notes: Vec<String>,
    notes: &mut Vec<String>,
) -> Result<(), SpecError> {
    if dir.join("include").exists() {
        return Err(unsupported(
            &dir.join("include"),
            "`include/` (code added to every submission)",
        ));
    }
    if dir.join("static_validator").exists() {
        notes.push("static_validator/: not run".into());
    }
    notes.extend(validator_notes);

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
        if entry.file_name() == "generators.yaml" && !dir.join(generated::FILE).is_file() {
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

/// Why a package's folder name cannot be its problem id.
#[derive(Debug, thiserror::Error)]
enum IdError {
    #[error("the package folder has no usable name")]
    NoName,
    #[error(
        "the package folder name `{0}` is not a problem id: rename the folder to lowercase letters and digits"
    )]
    NotAnId(String),
}

/// The package's short name is its folder's name; it must be a valid id.
fn package_id(dir: &Path) -> Result<String, IdError> {
    let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let name = abs
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or(IdError::NoName)?;
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(name.to_string())
    } else {
        Err(IdError::NotAnId(name.to_string()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_folder_must_be_named_as_an_id() {
        let t = tempfile::tempdir().expect("tempdir");
        let bad = t.path().join("Nim_Game");
        std::fs::create_dir(&bad).expect("mkdir");
        let e = package_id(&bad).expect_err("not an id");
        assert!(matches!(&e, IdError::NotAnId(n) if n == "Nim_Game"));
        assert_eq!(
            e.to_string(),
            "the package folder name `Nim_Game` is not a problem id: rename the folder to lowercase letters and digits"
        );
        let good = t.path().join("nimgame");
        std::fs::create_dir(&good).expect("mkdir");
        assert_eq!(package_id(&good).expect("an id"), "nimgame");
    }

    /// The constants that the test-data settings files and
    /// `generators.yaml` use are the ones of the `problem.yaml` text the
    /// loader was given: the file is read once, never again by the parts.
    #[test]
    fn the_parts_use_the_constants_of_the_text_read_once() {
        use crate::problem::TestSource;
        let t = tempfile::tempdir().expect("tempdir");
        let write = |rel: &str, text: &str| {
            let p = t.path().join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        };
        let spec = t.path().join("pkg").join(crate::problem::SPEC_FILE);
        let text = "problem_format_version: 2025-09\nname: P\nuuid: 1a\nconstants:\n  EPS: 0.001\n  N: 7\n";
        // On disk the file says otherwise: a part that read it again
        // would find neither constant.
        write(
            "pkg/problem.yaml",
            "problem_format_version: 2025-09\nname: P\nuuid: 1a\n",
        );
        write("pkg/data/sample/1.in", "1\n");
        write("pkg/data/sample/1.ans", "1\n");
        write(
            "pkg/data/secret/test_group.yaml",
            "output_validator_args: [float_absolute_tolerance, \"{{EPS}}\"]\n",
        );
        write("pkg/data/secret/1.in", "2\n");
        write("pkg/data/secret/1.ans", "2\n");
        let problem = load(&spec, text).expect("loads with the constants of the text");
        let facts = problem.package.expect("package facts");
        assert_eq!(
            facts.constants.get("EPS").map(String::as_str),
            Some("0.001")
        );
        // Tests made by `generators.yaml`, whose commands use a constant.
        std::fs::remove_dir_all(t.path().join("pkg/data")).expect("rm data");
        write(
            "pkg/generators/generators.yaml",
            "solution: /submissions/accepted/a.py\ndata:\n  sample:\n    data:\n      - '': gen.py 1\n  secret:\n    data:\n      one: gen.py {{N}}\n",
        );
        write("pkg/generators/gen.py", "import sys\nprint(sys.argv[1])\n");
        write("pkg/submissions/accepted/a.py", "print(input())\n");
        let problem = load(&spec, text).expect("generators.yaml with the constants of the text");
        let args: Vec<String> = problem
            .groups
            .iter()
            .flat_map(|g| g.tests.iter())
            .filter_map(|t| match t {
                TestSource::Command { args, .. } => Some(args.join(" ")),
                _ => None,
            })
            .collect();
        assert!(args.iter().any(|a| a == "7"), "{args:?}");
    }
}
