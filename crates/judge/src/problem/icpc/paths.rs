//! Where a test lies in a package's `data/` tree, as `submissions.yaml`
//! names tests and test data groups (`secret/group1/03`, no `.in`): what
//! rules scoped to a group are matched against, by `verify` and by the
//! time-limit derivation alike (kept in `PackageFacts::test_paths`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::testdata::{is_test_input, walk_data};
use crate::problem::Problem;

/// Each test's path under `data/` without `.in` (how `submissions.yaml`
/// names tests and groups), by its group and number.
pub fn test_paths(problem: &Problem) -> HashMap<(String, u32), String> {
    let mut paths = HashMap::new();
    let data = problem.dir.join("data");
    let under_data = |p: &Path| {
        let rel = p.strip_prefix("data").unwrap_or(p);
        rel.with_extension("").to_string_lossy().into_owned()
    };
    // Walked as loading walked it (links inside the package followed);
    // loading has refused what cannot be walked.
    let mut samples: Vec<PathBuf> = walk_data(&problem.dir, &data.join("sample"), usize::MAX)
        .unwrap_or_default()
        .into_iter()
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
