//! The last step of loading a package: what the judge and `verify` need
//! of it beyond the common model ([`PackageFacts`]), read here once so that
//! nothing downstream reads the package's files again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::constants::Constants;
use super::generators::Plan;
use super::schema::Version;
use super::{generated, paths, scoring, test_yaml, testdata};
use crate::problem::expected::Expectations;
use crate::problem::{PackageFacts, Problem, TestSource};

/// The facts of the package `problem` was loaded from (its format
/// `version`, its tests' plan when `generators.yaml` makes them, its
/// `submissions.yaml` and its input validator programs).
pub fn fill(
    problem: &Problem,
    version: Version,
    plan: Option<&Plan>,
    expectations: Option<Expectations>,
    input_validators: Vec<PathBuf>,
    constants: std::collections::BTreeMap<String, String>,
) -> PackageFacts {
    // The settings files may use the constants, as the loader read them.
    let known = Constants::from_map(constants.clone());
    let mut args = HashMap::new();
    for validator in &input_validators {
        let stem = validator_name(validator);
        for ((group, k), source) in sources(problem, plan) {
            let these = input_validator_args(&problem.dir, version, &known, plan, &source, &stem);
            args.insert((group, k, stem.clone()), these);
        }
    }
    let unscored_groups = if problem.scoring {
        problem
            .groups
            .iter()
            .filter(|g| score_file_unused(&problem.dir, version, &known, plan, &g.name))
            .map(|g| g.name.clone())
            .collect()
    } else {
        Vec::new()
    };
    PackageFacts {
        legacy: version == Version::Legacy,
        expectations,
        test_paths: paths::test_paths(problem),
        input_validators,
        input_validator_args: args,
        unscored_groups,
        constants,
    }
}

/// The name an input validator's settings call it by (its file's stem).
fn validator_name(validator: &Path) -> String {
    validator
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Every test as the package gives it, by grundy's group and number: its
/// entry in the group, or for samples judged as text, the k-th sample file
/// (or plan entry).
fn sources(problem: &Problem, plan: Option<&Plan>) -> Vec<((String, u32), TestSource)> {
    let dir = &problem.dir;
    let mut out = Vec::new();
    for g in &problem.groups {
        for (i, t) in g.tests.iter().enumerate() {
            out.push(((g.name.clone(), i as u32 + 1), t.clone()));
        }
    }
    let sample = crate::generate::SAMPLE_GROUP;
    if !problem.groups.iter().any(|g| g.name == sample) {
        let samples: Vec<TestSource> = match plan {
            Some(plan) => plan.samples.clone(),
            None => testdata::sample_files(dir)
                .unwrap_or_default()
                .into_iter()
                .map(|input| TestSource::File {
                    input: input.strip_prefix(dir).unwrap_or(&input).to_path_buf(),
                    answer: None,
                })
                .collect(),
        };
        for (i, t) in samples.into_iter().enumerate() {
            out.push(((sample.to_string(), i as u32 + 1), t));
        }
    }
    out
}

/// The arguments the input validator named `validator_name` gets on the
/// test `source`: the `input_validator_args` / `input_validator_flags` in
/// force in the test's folder, inherited down the test-data tree,
/// overridden by the test's own settings (`<test>.yaml`, or its `yaml:` in
/// `generators.yaml`).
fn input_validator_args(
    dir: &Path,
    version: Version,
    constants: &Constants,
    plan: Option<&Plan>,
    source: &TestSource,
    validator_name: &str,
) -> Vec<String> {
    let mut quiet = Vec::new();
    let settings = match (plan, source) {
        (Some(plan), t) => generated::test_settings(plan, t),
        (None, TestSource::File { input, .. }) => {
            let data = dir.join("data");
            let at = dir.join(input);
            let folder = at.parent().map(Path::to_path_buf).unwrap_or(data.clone());
            testdata::settings_for(&data, &folder, version, constants, &mut quiet)
                .ok()
                .map(|folder| {
                    let own = test_yaml::read_in(version)
                        .then(|| test_yaml::read(&at).ok().flatten())
                        .flatten()
                        .unwrap_or_default();
                    testdata::merge(folder, own)
                })
        }
        _ => None,
    };
    settings
        .map(|s| testdata::input_validator_args(&s, validator_name))
        .unwrap_or_default()
}

/// Whether an output validator's `score.txt` on a test of grundy group
/// `group` is not to be read: the test is in a 2025-09 folder whose
/// `max_score` is `unbounded`, where the format's score is `score.txt` as
/// written with no maximum. grundy's groups have one, so such a test earns
/// its whole share when accepted (a note says so when the package loads).
/// Asked of scoring problems only.
fn score_file_unused(
    dir: &Path,
    version: Version,
    constants: &Constants,
    plan: Option<&Plan>,
    group: &str,
) -> bool {
    if version != Version::V2025 {
        return false;
    }
    let data = dir.join("data");
    let (keys, folders): (scoring::Keys<'_>, Vec<PathBuf>) = match plan {
        Some(plan) => (
            scoring::Keys::Plan(plan),
            plan.secret.iter().map(|(f, _)| data.join(f)).collect(),
        ),
        None => (
            scoring::Keys::Data(constants),
            testdata::secret_groups(dir)
                .map(|g| g.into_iter().map(|g| g.folder).collect())
                .unwrap_or_default(),
        ),
    };
    // The group itself, or one of the per-test groups made of it.
    scoring::unbounded_names(&data, keys, &folders)
        .into_iter()
        .any(|n| {
            group == n
                || group
                    .strip_prefix(&n)
                    .and_then(|r| r.strip_prefix('-'))
                    .is_some_and(|k| k.bytes().all(|b| b.is_ascii_digit()))
        })
}
