//! Scoring problems (`type: scoring`) mapped onto grundy's group points.
//!
//! grundy scores a submission by groups worth points, all-or-nothing: a
//! group earns its points when every test in it is accepted. The format's
//! scoring rules reduce to that in the common cases, and those are mapped
//! exactly:
//!
//! - **legacy / 2023-07** (`testdata.yaml`: `accept_score`, `reject_score`,
//!   `grader_flags`, `on_reject`, `range`, as problemtools' default grader
//!   reads them): a group aggregated by `min` is worth its `accept_score`,
//!   all-or-nothing; one aggregated by `sum` (the default) or `avg` earns
//!   per accepted test, so each test becomes a group of its own worth
//!   `accept_score` (`sum`) or `accept_score / N` (`avg`). The folders above
//!   must add their children up (`sum`), and the samples count for nothing
//!   (`ignore_sample`, or an `accept_score` of 0 there).
//! - **2025-09** (`test_group.yaml`: `max_score`, `score_aggregation`): a
//!   `pass-fail` or `min` group is worth its `max_score`, all-or-nothing; a
//!   `sum` group's tests are worth `max_score / N` each; `secret` adds its
//!   groups up, or with `pass-fail` is one group worth its `max_score`.
//!
//! An accepted test may earn part of its points: the output validator's
//! `score.txt` / `score_multiplier.txt` (read by `judge::score_file`); a
//! group earns its points times its tests' lowest share.
//!
//! What does not reduce to that (a custom grader, `min`/`max` across groups, `on_reject: break` with a
//! `sum`, `require_pass`, an unbounded score) is judged the nearest way and
//! said, per item, in a note. grundy reports scores out of 100; the
//! package's own score is the same fraction of its maximum
//! ([`package_score`]), which is what `submissions.yaml`'s `score` and the
//! `partially_accepted/` folder are checked against.

mod legacy;
mod v2025;

use std::path::{Path, PathBuf};

use super::constants::Constants;
use super::generators::Plan;
use super::schema::{RawPackage, RawTestdata, Version};
use super::testdata::{self, SecretGroup};
use crate::problem::{Group, SpecError, TestSource};
use legacy::legacy;
pub use v2025::unbounded_names;
use v2025::{own_settings, v2025};

/// Whether the package is a scoring problem: `type` names `scoring`.
pub fn is_scoring(raw: &RawPackage) -> bool {
    match &raw.kind {
        Some(serde_yaml::Value::String(s)) => s.split_whitespace().any(|k| k == "scoring"),
        Some(serde_yaml::Value::Sequence(v)) => v.iter().any(|k| k.as_str() == Some("scoring")),
        _ => false,
    }
}

/// A submission's score as the package counts it: grundy's score (out of
/// 100) as the same fraction of the points of `groups` (the package's
/// maximum, since each group's points are its score in the package).
pub fn package_score(groups: &[Group], score: f64) -> f64 {
    let max: f64 = groups
        .iter()
        .filter(|g| g.name != crate::generate::SAMPLE_GROUP)
        .map(|g| g.points)
        .sum();
    score / 100.0 * max
}

/// The pass-fail notes about grading keys, wrong for a scoring problem.
fn pass_fail_note(note: &str) -> bool {
    note.ends_with("`grading` not used (pass-fail problem)")
        || (note.contains("`on_reject: ") && note.contains("a pass-fail verdict"))
}

/// Where a package's grading keys are written: its `data/` folders'
/// settings files, or (tests made from `generators.yaml`) that file's
/// inline `test_group.yaml` / `testdata.yaml`, read as if written in the
/// folders, as BAPCtools writes them out. `Data` holds the package's
/// constants, which the settings files may use.
#[derive(Clone, Copy)]
pub enum Keys<'a> {
    Data(&'a Constants),
    Plan(&'a Plan),
}

impl Keys<'_> {
    /// The settings in force in `folder` (under `data`), inherited.
    fn inherited(
        self,
        data: &Path,
        folder: &Path,
        version: Version,
        quiet: &mut Vec<String>,
    ) -> Result<RawTestdata, SpecError> {
        match self {
            Keys::Data(constants) => {
                testdata::settings_for(data, folder, version, constants, quiet)
            }
            Keys::Plan(plan) => Ok(plan.settings_for(&rel(data, folder))),
        }
    }

    /// The settings `folder`'s own file states (2025-09's scoring keys).
    fn own(self, data: &Path, folder: &Path) -> Result<RawTestdata, SpecError> {
        match self {
            Keys::Data(constants) => own_settings(folder, constants),
            Keys::Plan(plan) => Ok(plan
                .settings
                .get(&rel(data, folder))
                .cloned()
                .unwrap_or_default()),
        }
    }
}

/// `folder` as the plan names it: its path under `data` (`""` for `data`).
fn rel(data: &Path, folder: &Path) -> String {
    folder
        .strip_prefix(data)
        .map(|r| r.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Sets the points of the secret groups of a scoring package from its
/// grading rules (splitting a group into one group per test where the
/// package scores tests one by one), and notes what does not map.
pub fn apply(
    dir: &Path,
    raw: &RawPackage,
    version: Version,
    keys: Keys<'_>,
    groups: Vec<SecretGroup>,
    notes: &mut Vec<String>,
) -> Result<Vec<SecretGroup>, SpecError> {
    notes.retain(|n| !pass_fail_note(n));
    let data = dir.join("data");
    if dir.join("graders").exists() || raw.grading.is_some() {
        note_grading(raw, dir, notes);
    }
    // An output validator's `score.txt` is read by the judge
    // (`judge::score_file`); an interactor's is not.
    if super::interactor::is_interactive(raw).unwrap_or(false) {
        notes.push(
            "scoring: a `score.txt` the interactor writes is not read: an accepted test earns its full share"
                .into(),
        );
    }
    let out = match version {
        Version::V2025 => v2025(&data, keys, groups, notes)?,
        _ => legacy(&data, version, keys, groups, notes)?,
    };
    let max: f64 = out.iter().map(|g| g.group.points).sum();
    if max > 0.0 && (max - 100.0).abs() > 1e-9 {
        notes.push(format!(
            "scoring: the package's maximum score is {}; grundy shows scores out of 100 (the same fraction)",
            trim(max)
        ));
    }
    Ok(out)
}

/// `graders/` and problem.yaml's `grading:`: what of them is used.
fn note_grading(raw: &RawPackage, dir: &Path, notes: &mut Vec<String>) {
    if dir.join("graders").exists() {
        notes.push(
            "graders/: a custom grader is not run: groups are scored as the default grader scores them".into(),
        );
    }
    if let Some(serde_yaml::Value::Mapping(m)) = &raw.grading {
        for (k, v) in m {
            let key = k.as_str().unwrap_or("");
            match (key, v.as_str()) {
                ("objective", Some("max")) | ("show_test_data_groups", _) => {}
                ("objective", _) => notes.push(
                    "problem.yaml: `grading: objective: min` not honoured: grundy's score is better when higher".into(),
                ),
                _ => notes.push(format!("problem.yaml: `grading: {key}` not used")),
            }
        }
    }
}

fn with_points(mut g: SecretGroup, points: f64) -> SecretGroup {
    g.group.points = points;
    g
}

/// One group per test, each worth `each`: named `<group>-<k>` after the
/// test's number in its folder.
fn per_test(g: SecretGroup, each: f64) -> Vec<SecretGroup> {
    if g.group.tests.len() == 1 {
        return vec![with_points(g, each)];
    }
    let width = g.group.tests.len().to_string().len();
    g.group
        .tests
        .into_iter()
        .enumerate()
        .map(|(k, t): (usize, TestSource)| SecretGroup {
            group: Group {
                name: format!("{}-{:0width$}", g.group.name, k + 1),
                points: each,
                tests: vec![t],
            },
            folder: g.folder.clone(),
        })
        .collect()
}

fn show(data: &Path, folder: &Path) -> String {
    let rel = folder.strip_prefix(data).unwrap_or(folder);
    if rel.as_os_str().is_empty() {
        "data".into()
    } else {
        format!("data/{}", rel.display())
    }
}

fn note_once(notes: &mut Vec<String>, note: String) {
    if !notes.contains(&note) {
        notes.push(note);
    }
}

/// A number as people write it: `50`, not `50.0`; `33.333`, rounded.
fn trim(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

#[cfg(test)]
mod tests {
    use super::legacy::aggregation;
    use super::*;

    #[test]
    fn the_default_graders_score_mode_is_the_last_named() {
        let flags = |f: &str| RawTestdata {
            grader_flags: Some(serde_yaml::Value::String(f.into())),
            ..RawTestdata::default()
        };
        let s = flags("first_error min accept_if_any_accepted");
        assert_eq!(aggregation(&s), "min");
        let s = flags("min avg");
        assert_eq!(aggregation(&s), "avg");
        assert_eq!(aggregation(&RawTestdata::default()), "sum");
    }

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    fn points(dir: &Path, yaml: &str, notes: &mut Vec<String>) -> Vec<(String, f64)> {
        let raw: RawPackage = serde_yaml::from_str(yaml).expect("problem.yaml");
        let version = Version::parse(raw.problem_format_version.as_deref()).expect("version");
        let groups = testdata::secret_groups(dir).expect("groups");
        let constants = Constants::read(&raw).expect("constants");
        apply(dir, &raw, version, Keys::Data(&constants), groups, notes)
            .expect("mapped")
            .into_iter()
            .map(|g| (g.group.name, g.group.points))
            .collect()
    }

    #[test]
    fn a_pass_fail_secret_is_one_group_and_avg_shares_the_accept_score() {
        let d = tempfile::tempdir().expect("tempdir");
        for t in ["secret/a/1", "secret/a/2", "secret/b/1"] {
            write(d.path(), &format!("data/{t}.in"), "1\n");
            write(d.path(), &format!("data/{t}.ans"), "1\n");
        }
        write(
            d.path(),
            "data/secret/test_group.yaml",
            "max_score: 30\nscore_aggregation: pass-fail\n",
        );
        let mut notes = Vec::new();
        let got = points(
            d.path(),
            "problem_format_version: 2025-09\ntype: scoring\n",
            &mut notes,
        );
        assert_eq!(got, [("secret".to_string(), 30.0)], "{notes:?}");

        // The same tests graded the legacy way: `avg` of 12 in `a`, with
        // `break` (noted), and `b` worth the default 1.
        write(
            d.path(),
            "data/secret/a/testdata.yaml",
            "accept_score: 12\ngrader_flags: avg\n",
        );
        let mut notes = Vec::new();
        let got = points(d.path(), "type: scoring\n", &mut notes);
        assert_eq!(
            got,
            [
                ("a-1".to_string(), 6.0),
                ("a-2".to_string(), 6.0),
                ("b".to_string(), 1.0)
            ]
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("`on_reject: break` with `avg`")),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.contains("maximum score is 13")),
            "{notes:?}"
        );
    }

    #[test]
    fn package_scores_are_the_same_fraction_of_the_packages_maximum() {
        let g = |name: &str, points: f64| Group {
            name: name.into(),
            points,
            tests: Vec::new(),
        };
        let groups = [g("sample", 0.0), g("a", 30.0), g("b", 30.0)];
        assert_eq!(package_score(&groups, 50.0), 30.0);
        assert_eq!(trim(33.3333), "33.333");
        assert_eq!(trim(50.0), "50");
    }
}
