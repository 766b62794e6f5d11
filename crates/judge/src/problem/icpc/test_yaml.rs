//! A test case's own settings (2023-07 on): `<test>.yaml` beside
//! `<test>.in`, or a test case's `yaml:` in BAPCtools' `generators.yaml`
//! (which BAPCtools writes out as that file). They override the settings
//! of the test's folder key by key, as the format's "Test case
//! configuration" says: a test's `input_validator_args` is what the input
//! validators get on that test, whatever its folder says.
//!
//! grundy judges a problem with one output validator setting and runs
//! submissions without arguments, so a test whose own
//! `output_validator_args` differ from the problem's, or that gives the
//! submission `args`, is skipped with a note naming it (the rest is
//! judged), as a test data group with other arguments is.

use std::path::{Path, PathBuf};

use super::schema::{RawTestdata, Version};
use super::testdata;
use crate::problem::{SpecError, TestSource};

/// Keys of a test's settings that change no verdict here: shown to
/// people (`hint`, `description`, feedback) or used by visualizers.
const QUIET: [&str; 5] = [
    "hint",
    "description",
    "full_feedback",
    "input_visualizer_args",
    "output_visualizer_args",
];

/// Whether the package version has per-test settings files: the legacy
/// format has none (a `.yaml` there is no setting of the test).
pub fn read_in(version: Version) -> bool {
    version != Version::Legacy
}

/// The settings file of the test whose input is `input`.
pub fn file_of(input: &Path) -> PathBuf {
    input.with_extension("yaml")
}

/// The settings `<test>.yaml` gives the test whose input is `input`, if
/// it has the file. Test data: no constants are replaced in it, as the
/// format says.
pub fn read(input: &Path) -> Result<Option<RawTestdata>, SpecError> {
    let path = file_of(input);
    if !path.is_file() {
        return Ok(None);
    }
    let text = crate::problem::file::read_text(&path).map_err(|source| SpecError::Read {
        path: path.clone(),
        source,
    })?;
    if text.trim().is_empty() {
        return Ok(Some(RawTestdata::default()));
    }
    crate::problem::yaml::from_yaml(&path, &text).map(Some)
}

/// Why a test with its own settings `own` (under folder settings
/// `folder`) cannot be judged as the problem is, if it cannot:
/// `problem_args` are the output validator arguments the problem is
/// judged with. Keys read but not used are added to `notes`, once each,
/// under `shown` (the test's file or place).
pub fn skip_reason(
    own: &RawTestdata,
    folder: &RawTestdata,
    problem_args: &[String],
    shown: &str,
    notes: &mut Vec<String>,
) -> Result<Option<String>, testdata::ValidatorArgsError> {
    for key in own.other.keys() {
        if key != "args" && !QUIET.contains(&key.as_str()) {
            let note = format!("{shown}: `{key}` not used");
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
    }
    let args_given = match own.other.get("args") {
        None | Some(serde_yaml::Value::Null) => false,
        Some(serde_yaml::Value::Sequence(v)) => !v.is_empty(),
        Some(serde_yaml::Value::String(s)) => !s.trim().is_empty(),
        Some(_) => true,
    };
    if args_given {
        return Ok(Some(
            "it gives the submission `args`, and grundy runs submissions without arguments".into(),
        ));
    }
    if own.output_validator_args.is_none() && own.output_validator_flags.is_none() {
        return Ok(None);
    }
    let args = testdata::validator_args(&testdata::merge(folder.clone(), own.clone()))?;
    if args != problem_args {
        return Ok(Some(format!(
            "its output validator arguments `{}` differ from the problem's (`{}`), and grundy judges a problem with one validator setting",
            args.join(" "),
            problem_args.join(" ")
        )));
    }
    Ok(None)
}

/// Keeps the tests of `tests` (files under `dir`, in a folder whose
/// settings are `folder`) that can be judged with `problem_args`; notes
/// each one skipped.
pub fn retain_files(
    dir: &Path,
    tests: &mut Vec<TestSource>,
    folder: &RawTestdata,
    problem_args: &[String],
    notes: &mut Vec<String>,
) -> Result<(), SpecError> {
    let mut kept = Vec::with_capacity(tests.len());
    for t in tests.drain(..) {
        if let TestSource::File { input, .. } = &t {
            let at = dir.join(input);
            if let Some(own) = read(&at)? {
                let file = file_of(input);
                let shown = file.display().to_string();
                let why = skip_reason(&own, folder, problem_args, &shown, notes).map_err(|e| {
                    SpecError::Invalid {
                        path: dir.join(&file),
                        message: e.to_string(),
                    }
                })?;
                if let Some(why) = why {
                    notes.push(format!("{}: skipped: {why}", input.display()));
                    continue;
                }
            }
        }
        kept.push(t);
    }
    *tests = kept;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(yaml: &str) -> RawTestdata {
        serde_yaml::from_str(yaml).expect("settings")
    }

    #[test]
    fn a_tests_own_validator_arguments_and_args_decide_whether_it_is_judged() {
        let folder = raw("output_validator_args: [case_sensitive]\n");
        let problem = vec!["case_sensitive".to_string()];
        let mut notes = Vec::new();
        let same = raw("output_validator_args: [case_sensitive]\nhint: h\n");
        assert_eq!(
            skip_reason(&same, &folder, &problem, "t.yaml", &mut notes),
            Ok(None)
        );
        let other = raw("output_validator_args: [float_tolerance, '1e-6']\n");
        let why = skip_reason(&other, &folder, &problem, "t.yaml", &mut notes)
            .expect("read")
            .expect("skipped");
        assert!(why.contains("float_tolerance 1e-6"), "{why}");
        let args = raw("args: [--fast]\n");
        let why = skip_reason(&args, &folder, &problem, "t.yaml", &mut notes)
            .expect("read")
            .expect("skipped");
        assert!(why.contains("`args`"), "{why}");
        let unknown = raw("frobnicate: 1\ninput_validator_args: [a]\n");
        assert_eq!(
            skip_reason(&unknown, &folder, &problem, "t.yaml", &mut notes),
            Ok(None)
        );
        assert_eq!(notes, ["t.yaml: `frobnicate` not used"]);
    }
}
