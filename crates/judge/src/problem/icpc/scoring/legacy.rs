//! Legacy and 2023-07 scoring: `testdata.yaml`'s grading keys
//! (`accept_score`, `reject_score`, `grader_flags`, `on_reject`, `range`),
//! inherited down the tree, as problemtools' default grader reads them.

use std::path::Path;

use super::*;

/// Legacy and 2023-07: `testdata.yaml`'s grading keys, inherited down the
/// tree, as the default grader reads them.
pub(super) fn legacy(
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
pub(super) fn aggregation(s: &RawTestdata) -> &'static str {
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

pub(super) fn flags(s: &RawTestdata) -> Vec<String> {
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
