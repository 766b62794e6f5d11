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

use std::path::{Path, PathBuf};

use super::generators::Plan;
use super::schema::{RawPackage, RawTestdata, Version};
use super::testdata::{self, SecretGroup};
use crate::spec::{Group, SpecError, TestSource};

/// Whether the package is a scoring problem: `type` names `scoring`.
pub fn is_scoring(raw: &RawPackage) -> bool {
    match &raw.kind {
        Some(serde_yaml::Value::String(s)) => s.split_whitespace().any(|k| k == "scoring"),
        Some(serde_yaml::Value::Sequence(v)) => v.iter().any(|k| k.as_str() == Some("scoring")),
        _ => false,
    }
}

/// Whether the package in `dir` is a scoring problem (read again from its
/// `problem.yaml`, for the parts that only have the loaded problem).
pub fn dir_is_scoring(dir: &Path) -> bool {
    super::schema::raw_package(dir).is_some_and(|raw| is_scoring(&raw))
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
/// folders, as BAPCtools writes them out.
#[derive(Clone, Copy)]
pub enum Keys<'a> {
    Data,
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
            Keys::Data => testdata::settings_for(data, folder, version, quiet),
            Keys::Plan(plan) => Ok(plan.settings_for(&rel(data, folder))),
        }
    }

    /// The settings `folder`'s own file states (2025-09's scoring keys).
    fn own(self, data: &Path, folder: &Path) -> Result<RawTestdata, SpecError> {
        match self {
            Keys::Data => own_settings(data, folder),
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

/// Legacy and 2023-07: `testdata.yaml`'s grading keys, inherited down the
/// tree, as the default grader reads them.
fn legacy(
    data: &Path,
    version: Version,
    keys: Keys<'_>,
    groups: Vec<SecretGroup>,
    notes: &mut Vec<String>,
) -> Result<Vec<SecretGroup>, SpecError> {
    let mut quiet = Vec::new();
    let settings =
        |folder: &Path, quiet: &mut Vec<String>| keys.inherited(data, folder, version, quiet);
    // The root and the samples: the samples count for nothing here.
    let root = settings(data, &mut quiet)?;
    let ignore_sample = flags(&root).iter().any(|f| f == "ignore_sample");
    let sample = settings(&data.join("sample"), &mut quiet)?;
    let sample_score = number(
        sample.accept_score.as_ref(),
        1.0,
        "accept_score",
        "data/sample",
        notes,
    );
    if !ignore_sample && sample_score != 0.0 && data.join("sample").is_dir() {
        notes.push(format!(
            "data/sample: the package scores the samples ({} each); grundy's samples are worth nothing",
            trim(sample_score)
        ));
    }
    let mut seen_folders: Vec<PathBuf> = Vec::new();
    let mut out = Vec::new();
    for g in groups {
        let own = settings(&g.folder, &mut quiet)?;
        let shown = show(data, &g.folder);
        if own.grading.as_ref().and_then(|v| v.as_str()) == Some("custom") {
            note_once(
                notes,
                format!(
                    "{shown}: `grading: custom`: the custom grader is not run; scored as the default grader would"
                ),
            );
        }
        let accept = number(
            own.accept_score.as_ref(),
            1.0,
            "accept_score",
            &shown,
            notes,
        );
        let reject = number(
            own.reject_score.as_ref(),
            0.0,
            "reject_score",
            &shown,
            notes,
        );
        if reject != 0.0 {
            notes.push(format!(
                "{shown}: `reject_score: {}` not used: a failed test earns nothing here",
                trim(reject)
            ));
        }
        let agg = aggregation(&own);
        let cont = own.on_reject.as_deref() == Some("continue");
        let n = g.group.tests.len();
        if let Some(cap) = range_max(&own) {
            let most = match agg {
                "sum" => accept * n as f64,
                _ => accept,
            };
            if most > cap + 1e-9 {
                notes.push(format!(
                    "{shown}: `range` caps the group at {} but its tests can earn {}: not capped here",
                    trim(cap),
                    trim(most)
                ));
            }
        }
        // The folders above the group, up to data/, must add their
        // children up for the groups' points to be the package's score.
        let mut at = g.folder.parent().map(Path::to_path_buf);
        match agg {
            "sum" | "avg" => {
                let each = if agg == "avg" {
                    accept / n.max(1) as f64
                } else {
                    accept
                };
                if !cont && n > 1 {
                    notes.push(format!(
                        "{shown}: `on_reject: break` with `{agg}`: the package stops scoring at the first failed test; grundy scores every accepted test, {} each",
                        trim(each)
                    ));
                }
                out.extend(per_test(g, each));
            }
            _ => {
                if agg == "max" && n > 1 {
                    notes.push(format!(
                        "{shown}: `grader_flags: max` (the best test counts) not mapped: judged all-or-nothing, worth {}",
                        trim(accept)
                    ));
                }
                out.push(with_points(g, accept));
            }
        }
        while let Some(folder) = at {
            if folder == data || !folder.starts_with(data) {
                break;
            }
            if !seen_folders.contains(&folder) {
                seen_folders.push(folder.clone());
                let s = settings(&folder, &mut quiet)?;
                let a = aggregation(&s);
                if a != "sum" {
                    notes.push(format!(
                        "{}: `grader_flags: {a}` across its groups not mapped: their scores are added up",
                        show(data, &folder)
                    ));
                }
            }
            at = folder.parent().map(Path::to_path_buf);
        }
    }
    let root_agg = aggregation(&root);
    if root_agg != "sum" {
        notes.push(format!(
            "data/: `grader_flags: {root_agg}` not mapped: the secret score is the submission's"
        ));
    }
    Ok(out)
}

/// The default grader's score mode: the last of `sum`, `avg`, `min`, `max`
/// in `grader_flags` (as it reads them), else `sum`.
fn aggregation(s: &RawTestdata) -> &'static str {
    flags(s)
        .iter()
        .rev()
        .find_map(|f| match f.as_str() {
            "sum" => Some("sum"),
            "avg" => Some("avg"),
            "min" => Some("min"),
            "max" => Some("max"),
            _ => None,
        })
        .unwrap_or("sum")
}

fn flags(s: &RawTestdata) -> Vec<String> {
    words(s.grader_flags.as_ref())
}

/// A setting written as words (`grader_flags: min`, `range: 0 50`) or as
/// a single number.
fn words(v: Option<&serde_yaml::Value>) -> Vec<String> {
    match v {
        Some(serde_yaml::Value::String(s)) => s.split_whitespace().map(String::from).collect(),
        Some(serde_yaml::Value::Number(n)) => vec![n.to_string()],
        _ => Vec::new(),
    }
}

/// A score setting (`accept_score`, `reject_score`): a number, possibly
/// written as a string; `default` when absent. Anything else is said.
fn number(
    v: Option<&serde_yaml::Value>,
    default: f64,
    key: &str,
    shown: &str,
    notes: &mut Vec<String>,
) -> f64 {
    let parsed = match v {
        None => return default,
        Some(serde_yaml::Value::Number(n)) => n.as_f64(),
        Some(serde_yaml::Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    match parsed {
        Some(x) if x.is_finite() => x,
        _ => {
            note_once(
                notes,
                format!("{shown}: `{key}` is not a number: {} used", trim(default)),
            );
            default
        }
    }
}

/// The upper end of `range: A B`, when finite.
fn range_max(s: &RawTestdata) -> Option<f64> {
    let words = words(s.range.as_ref());
    let hi: f64 = words.get(1)?.parse().ok()?;
    hi.is_finite().then_some(hi)
}

/// 2025-09: `test_group.yaml` in `secret/` and in each test data group
/// (the folders directly under `secret/`).
fn v2025(
    data: &Path,
    keys: Keys<'_>,
    groups: Vec<SecretGroup>,
    notes: &mut Vec<String>,
) -> Result<Vec<SecretGroup>, SpecError> {
    let secret_dir = data.join("secret");
    let secret = keys.own(data, &secret_dir)?;
    let secret_max = match max_score(&secret, &secret_dir)? {
        Some(m) => m,
        None => {
            notes.push(
                "data/secret: `max_score: unbounded` not mapped: grundy's groups have a maximum, so each is worth 1, and an accepted test earns its whole share (its `score.txt` is not read)".into(),
            );
            1.0
        }
    };
    let secret_agg = secret.score_aggregation.as_deref().unwrap_or("sum");
    note_require_pass(&secret, "data/secret", notes);
    if secret_agg == "pass-fail" {
        // All-or-nothing over every secret test: one group.
        let mut tests = Vec::new();
        for g in groups {
            tests.extend(g.group.tests);
        }
        if tests.is_empty() {
            return Ok(Vec::new());
        }
        return Ok(vec![SecretGroup {
            group: Group {
                name: testdata::SECRET_GROUP.into(),
                points: secret_max,
                tests,
            },
            folder: secret_dir,
        }]);
    }
    if secret_agg == "min" && groups.len() > 1 {
        notes.push(
            "data/secret: `score_aggregation: min` across groups not mapped: their scores are added up".into(),
        );
    }
    // Each grundy group belongs to one test data group: the folder right
    // under secret/ (or secret/ itself for tests placed there).
    let top = |folder: &Path| -> PathBuf {
        match folder
            .strip_prefix(&secret_dir)
            .ok()
            .and_then(|r| r.components().next())
        {
            Some(c) => secret_dir.join(c),
            None => secret_dir.clone(),
        }
    };
    let mut out = Vec::new();
    let mut noted: Vec<PathBuf> = Vec::new();
    let count_in = |t: &Path, groups: &[SecretGroup]| -> usize {
        groups
            .iter()
            .filter(|g| top(&g.folder) == t)
            .map(|g| g.group.tests.len())
            .sum()
    };
    let all: Vec<(PathBuf, usize)> = groups
        .iter()
        .map(|g| (top(&g.folder), count_in(&top(&g.folder), &groups)))
        .collect();
    for (g, (t, total)) in groups.into_iter().zip(all) {
        let shown = show(data, &t);
        if t == secret_dir {
            // Test cases directly in secret/: scored by secret's rules.
            match secret_agg {
                "sum" => out.extend(per_test(g, secret_max / total.max(1) as f64)),
                _ => out.push(with_points(g, secret_max)),
            }
            continue;
        }
        let own = keys.own(data, &t)?;
        let first = !noted.contains(&t);
        if first {
            noted.push(t.clone());
            note_require_pass(&own, &shown, notes);
        }
        let max = match max_score(&own, &t)? {
            Some(m) => m,
            None => {
                if first {
                    notes.push(format!(
                        "{shown}: no bounded `max_score` (its score would be `score.txt` as written): not mapped, worth 1, and an accepted test earns its whole share (its `score.txt` is not read)"
                    ));
                }
                1.0
            }
        };
        let agg = own.score_aggregation.as_deref().unwrap_or("pass-fail");
        let share = g.group.tests.len() as f64 / total.max(1) as f64;
        match agg {
            "sum" => out.extend(per_test(g, max / total.max(1) as f64)),
            _ => {
                if share < 1.0 && first {
                    notes.push(format!(
                        "{shown}: its tests sit in several folders, judged as separate groups: its {} points are shared by test count",
                        trim(max)
                    ));
                }
                out.push(with_points(g, max * share));
            }
        }
    }
    Ok(out)
}

/// The grundy group names (before a per-test `-<k>`) of the test folders
/// `folders` (under `data`) that lie in a 2025-09 folder whose
/// `max_score` is `unbounded`: `secret` itself or a test data group right
/// under it.
pub fn unbounded_names(data: &Path, keys: Keys<'_>, folders: &[PathBuf]) -> Vec<String> {
    let secret_dir = data.join("secret");
    let unbounded = |t: &Path| {
        keys.own(data, t)
            .ok()
            .and_then(|own| max_score(&own, t).ok())
            .is_some_and(|m| m.is_none())
    };
    let secret_unbounded = unbounded(&secret_dir);
    folders
        .iter()
        .filter_map(|f| {
            let rel = f.strip_prefix(&secret_dir).ok()?;
            let top = match rel.components().next() {
                Some(c) => secret_dir.join(c),
                None => secret_dir.clone(),
            };
            let open = if top == secret_dir {
                secret_unbounded
            } else {
                unbounded(&top)
            };
            open.then(|| {
                if rel.as_os_str().is_empty() {
                    testdata::SECRET_GROUP.to_string()
                } else {
                    testdata::group_name(rel)
                }
            })
        })
        .collect()
}

fn note_require_pass(s: &RawTestdata, shown: &str, notes: &mut Vec<String>) {
    if s.require_pass.is_some() {
        notes.push(format!(
            "{shown}: `require_pass` not honoured: the group is scored whatever the groups it requires got"
        ));
    }
}

/// The scoring keys a folder's own `test_group.yaml` states (2025-09: not
/// inherited).
fn own_settings(data: &Path, folder: &Path) -> Result<RawTestdata, SpecError> {
    let path = folder.join("test_group.yaml");
    let Ok(text) = crate::spec::file::read_text(&path) else {
        return Ok(RawTestdata::default());
    };
    let text = testdata::constants(data)
        .substitute_strict(&text, &path)
        .map_err(|e| SpecError::Refused {
            path: path.clone(),
            source: e.into(),
        })?;
    if text.trim().is_empty() {
        return Ok(RawTestdata::default());
    }
    crate::spec::yaml::from_yaml(&path, &text)
}

/// `max_score`: a number, `unbounded` (`None`), or the default (100 in
/// `secret`, unbounded in a group).
fn max_score(s: &RawTestdata, folder: &Path) -> Result<Option<f64>, SpecError> {
    let is_secret = folder.file_name().is_some_and(|n| n == "secret");
    match &s.max_score {
        None if is_secret => Ok(Some(100.0)),
        None => Ok(None),
        Some(serde_yaml::Value::Number(n)) => match n.as_f64() {
            Some(v) if v >= 0.0 => Ok(Some(v)),
            _ => Err(SpecError::Invalid {
                path: folder.join("test_group.yaml"),
                message: format!("`max_score: {n}` must be a non-negative number"),
            }),
        },
        Some(serde_yaml::Value::String(s)) if s == "unbounded" => Ok(None),
        Some(other) => Err(SpecError::Invalid {
            path: folder.join("test_group.yaml"),
            message: format!(
                "`max_score` must be a non-negative integer or `unbounded`, found {}",
                serde_yaml::to_string(other).unwrap_or_default().trim()
            ),
        }),
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
        apply(dir, &raw, version, Keys::Data, groups, notes)
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
