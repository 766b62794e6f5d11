//! `submissions/`: which known submissions `verify` checks, and what it
//! skips (with a note each) rather than refusing the package.

use std::path::{Path, PathBuf};

use super::validators::{has_source_extension, visible_entries};
use crate::problem::expected::Expectations;
use crate::verdict::Verdict;

/// The reference: the first accepted submission in name order (a file, or
/// a folder of several files) in a language grundy builds.
pub fn first_accepted(dir: &Path) -> Option<PathBuf> {
    visible_entries(&dir.join("submissions").join("accepted"))
        .ok()?
        .into_iter()
        .find(|p| (p.is_file() && has_source_extension(p)) || p.is_dir())
}

fn is_disabled(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "disabled")
}

/// A note for each part of `submissions/` that is not checked: a folder
/// that is not one of grundy's verdict folders (`slow_accepted/`,
/// `rejected/`, `brute_force/`, …) unless `submissions.yaml` gives its
/// submissions rules, and a `.disabled` submission.
pub fn notes(dir: &Path, expected: Option<&Expectations>) -> Vec<String> {
    let root = dir.join("submissions");
    let Ok(entries) = visible_entries(&root) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    for entry in entries {
        let name = entry
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if entry.is_file() {
            continue;
        }
        let subs = visible_entries(&entry).unwrap_or_default();
        for sub in &subs {
            if is_disabled(sub) {
                notes.push(format!(
                    "{}: disabled, skipped",
                    sub.strip_prefix(dir).unwrap_or(sub).display()
                ));
            }
        }
        let ruled = |sub: &PathBuf| {
            expected.is_some_and(|e| {
                let rel = sub.strip_prefix(&root).unwrap_or(sub);
                !e.rules_for(&rel.to_string_lossy()).is_empty()
            })
        };
        if Verdict::from_folder(&name).is_none() && !subs.iter().any(ruled) {
            notes.push(format!(
                "submissions/{name}/: not a verdict folder grundy checks; its submissions are skipped"
            ));
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_folders_and_disabled_files_are_noted() {
        let d = tempfile::tempdir().expect("tempdir");
        let s = d.path().join("submissions");
        for f in [
            "accepted/A.kt",
            "accepted/a.cpp",
            "accepted/b.py.disabled",
            "slow_accepted/c.cpp",
        ] {
            let p = s.join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, "").expect("write");
        }
        std::fs::create_dir_all(s.join("accepted/multi")).expect("mkdir");
        let n = notes(d.path(), None);
        assert_eq!(n.len(), 2, "{n:?}");
        assert!(n.iter().any(|x| x.contains("slow_accepted")));
        assert!(n.iter().any(|x| x.contains("b.py.disabled")));
        assert_eq!(first_accepted(d.path()), Some(s.join("accepted/a.cpp")));
    }
}
