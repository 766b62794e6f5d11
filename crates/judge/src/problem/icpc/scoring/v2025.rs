//! 2025-09 scoring: `test_group.yaml`'s `max_score` and
//! `score_aggregation` in `secret/` and in each test data group.

use std::path::{Path, PathBuf};

use super::*;

/// 2025-09: `test_group.yaml` in `secret/` and in each test data group
/// (the folders directly under `secret/`).
pub(super) fn v2025(
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
pub(super) fn own_settings(folder: &Path, constants: &Constants) -> Result<RawTestdata, SpecError> {
    let path = folder.join("test_group.yaml");
    let Ok(text) = crate::problem::file::read_text(&path) else {
        return Ok(RawTestdata::default());
    };
    let text = constants
        .substitute_strict(&text, &path)
        .map_err(|e| SpecError::Refused {
            path: path.clone(),
            source: e.into(),
        })?;
    if text.trim().is_empty() {
        return Ok(RawTestdata::default());
    }
    crate::problem::yaml::from_yaml(&path, &text)
}

/// `max_score`: a number, `unbounded` (`None`), or the default (100 in
/// `secret`, unbounded in a group).
pub(super) fn max_score(s: &RawTestdata, folder: &Path) -> Result<Option<f64>, SpecError> {
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
