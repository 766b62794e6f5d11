//! Which known submissions `verify` checks and what each must get: its
//! folder's verdict, or for a package with `submissions/submissions.yaml`
//! the format's per-test rules (see `spec::icpc::expectations`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::judge;
use crate::spec::Problem;
use crate::spec::icpc::{self, Rule};
use crate::verdict::Verdict;

/// A known submission: the verdict its folder promises (shown), and the
/// rules that decide instead when `submissions.yaml` applies.
pub struct Known {
    pub expected: Verdict,
    pub path: PathBuf,
    pub rules: Vec<Rule>,
    /// Its language and entry point when `submissions.yaml` says them.
    pub build: Option<icpc::Build>,
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
    if !crate::spec::is_icpc_package(&problem.dir) {
        return plain();
    }
    // Loading the package already read the file; an error here cannot be.
    let Ok(Some(rules)) = icpc::expectations(&problem.dir, &mut Vec::new()) else {
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

/// Each test's path under `data/` without `.in` (how `submissions.yaml`
/// names tests and groups), by its group and number.
pub fn test_paths(problem: &Problem) -> HashMap<(String, u32), String> {
    let mut paths = HashMap::new();
    let data = problem.dir.join("data");
    let under_data = |p: &Path| {
        let rel = p.strip_prefix("data").unwrap_or(p);
        rel.with_extension("").to_string_lossy().into_owned()
    };
    let mut samples: Vec<PathBuf> = walkdir::WalkDir::new(data.join("sample"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "in"))
        .map(|e| e.into_path())
        .collect();
    samples.sort();
    for (i, s) in samples.iter().enumerate() {
        let rel = s.strip_prefix(&problem.dir).unwrap_or(s);
        paths.insert(
            (crate::generate::SAMPLE_GROUP.to_string(), i as u32 + 1),
            under_data(rel),
        );
    }
    for g in &problem.groups {
        for (k, source) in g.tests.iter().enumerate() {
            if let crate::generate::TestSource::File { input, .. } = source {
                paths.insert((g.name.clone(), k as u32 + 1), under_data(input));
            }
        }
    }
    paths
}

/// The number a test's name ends with (`secret-03` is 3).
pub fn test_number(name: &str) -> Option<u32> {
    name.rsplit('-').next()?.parse().ok()
}
