//! Which known submissions `verify` checks and what each must get: its
//! folder's verdict, or for a package with `submissions/submissions.yaml`
//! the format's per-test rules (see `problem::expected`).

use std::path::PathBuf;

use crate::judge;
use crate::problem::Problem;
use crate::problem::expected::{Build, Expectations, Rule};
use crate::verdict::Verdict;

/// A known submission: the verdict its folder promises (shown), and the
/// rules that decide instead when `submissions.yaml` applies.
pub struct Known {
    pub expected: Verdict,
    pub path: PathBuf,
    pub rules: Vec<Rule>,
    /// Its language and entry point when `submissions.yaml` says them.
    pub build: Option<Build>,
}

pub fn known(problem: &Problem) -> Vec<Known> {
    let plain = || {
        judge::known_submissions(&problem.dir)
            .into_iter()
            .map(|(expected, path)| Known {
                expected,
                path,
                rules: Vec::new(),
                build: None,
            })
            .collect()
    };
    let Some(rules) = problem
        .package
        .as_ref()
        .and_then(|p| p.expectations.as_ref())
    else {
        return plain();
    };
    let root = problem.dir.join("submissions");
    let mut found: Vec<Known> = walkdir::WalkDir::new(&root)
        .min_depth(2)
        .max_depth(2)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter(|e| {
            e.path()
                .extension()
                .is_none_or(|x| x != "md" && x != "disabled")
        })
        .filter_map(|e| {
            let rel = e
                .path()
                .strip_prefix(&root)
                .ok()?
                .to_string_lossy()
                .into_owned();
            let folder = rel.split('/').next()?.to_string();
            let these = rules.rules_for(&rel);
            if these.is_empty() {
                return None;
            }
            Some(Known {
                expected: Verdict::from_folder(&folder).unwrap_or(Verdict::AC),
                path: e.into_path(),
                rules: these,
                build: rules.build_for(&rel),
            })
        })
        .collect();
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

/// The rules that decide which of `known`'s runs bound the time limit:
/// its `submissions.yaml` rules, else its folder's default rule as the
/// format gives it (every package version has the same folders).
pub fn time_rules(problem: &Problem, known: &Known) -> Vec<Rule> {
    if !known.rules.is_empty() {
        return known.rules.clone();
    }
    let rel = known
        .path
        .strip_prefix(problem.dir.join("submissions"))
        .unwrap_or(&known.path)
        .to_string_lossy()
        .into_owned();
    Expectations::default().rules_for(&rel)
}
