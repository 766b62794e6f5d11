//! Where a test lies in a package's `data/` tree, as `submissions.yaml`
//! names tests and test data groups (`secret/group1/03`, no `.in`): what
//! rules scoped to a group are matched against, by `verify` and by the
//! time-limit derivation alike.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::testdata::is_test_input;
use crate::spec::Problem;

/// The path under `data/` (without `.in`) of the test a result names, as
/// `submissions.yaml` names tests; the test's own name when unknown.
pub fn test_path(paths: &HashMap<(String, u32), String>, group: &str, name: &str) -> String {
    test_number(name)
        .and_then(|k| paths.get(&(group.to_string(), k)))
        .cloned()
        .unwrap_or_else(|| name.to_string())
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
        .filter(is_test_input)
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
