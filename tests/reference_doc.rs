//! docs/reference.md stays the whole contract, and the docs stay within the
//! repository: every command has its section, every problem its row in
//! the catalog with the limits it really has, every link between the
//! documents leads to a file (and heading) of the repository, and nothing
//! cites a document the repository does not have.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn reference() -> String {
    read(&repo("docs/reference.md"))
}

#[test]
fn every_command_has_its_section() {
    let help = common::grundy_in(&repo("problems"), &["--help"]);
    let text = common::stdout(&help);
    let commands: Vec<&str> = text
        .split("Commands:")
        .nth(1)
        .and_then(|t| t.split("Options:").next())
        .expect("a list of commands")
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10, "{text}");
    let doc = reference();
    for c in commands {
        assert!(
            doc.contains(&format!("### `grundy {c}`")),
            "docs/reference.md has no section `### \\`grundy {c}\\``"
        );
    }
}

#[test]
fn every_problem_has_its_row_with_its_limits() {
    let out = common::grundy_in(&repo("problems"), &["list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let problems: serde_json::Value =
        serde_json::from_str(&common::stdout(&out)).expect("list --json");
    let doc = reference();
    let catalog = doc
        .split("## The problem catalog")
        .nth(1)
        .and_then(|t| t.split("\n## ").next())
        .expect("a catalog section");
    for p in problems.as_array().expect("an array") {
        let id = p["id"].as_str().expect("id");
        let row = catalog
            .lines()
            .find(|l| l.starts_with(&format!("| `{id}` |")))
            .unwrap_or_else(|| panic!("no catalog row for `{id}`"));
        // The table gives the time limit where it is not 1 s.
        let ms = p["time_ms"].as_u64().expect("time_ms");
        if ms == 1000 {
            assert!(!row.contains(" s |"), "{row}");
        } else {
            assert!(
                row.contains(&format!("; {} s |", ms / 1000)),
                "{id}: {ms} ms\n{row}"
            );
        }
        assert_eq!(p["memory_kib"], 256 * 1024, "{id}");
    }
}

/// The Markdown files a reader of the repository reads.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![repo("README.md"), repo("SECURITY.md")];
    for e in std::fs::read_dir(repo("docs")).expect("docs") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// A heading's anchor as GitHub makes it: lowercase, punctuation dropped,
/// spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(doc: &str) -> BTreeSet<String> {
    let mut in_code = false;
    doc.lines()
        .filter(|l| {
            if l.starts_with("```") {
                in_code = !in_code;
            }
            !in_code && l.starts_with('#')
        })
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

#[test]
fn links_between_the_documents_lead_somewhere() {
    let mut broken = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        let dir = doc.parent().expect("folder");
        for link in text.split("](").skip(1) {
            let Some(target) = link.split(')').next() else {
                continue;
            };
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
            let path = if file.is_empty() {
                doc.clone()
            } else {
                dir.join(file)
            };
            let inside = path
                .canonicalize()
                .is_ok_and(|p| p.starts_with(repo("").canonicalize().expect("repo")));
            if !inside {
                broken.push(format!("{}: {target}", doc.display()));
                continue;
            }
            if !fragment.is_empty()
                && path.extension().is_some_and(|x| x == "md")
                && !anchors(&read(&path)).contains(fragment)
            {
                broken.push(format!("{}: {target} (no such heading)", doc.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn nothing_cites_a_document_the_repository_does_not_have() {
    let mut cited = Vec::new();
    for root in ["src", "tests", "docs", "bench", "deploy", ".ci"] {
        for e in walkdir::WalkDir::new(repo(root)) {
            let e = e.expect("walk");
            if !e.file_type().is_file() {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(e.path()) else {
                continue;
            };
            // This file names what it looks for.
            if e.path().ends_with("tests/reference_doc.rs") {
                continue;
            }
            for missing in ["SPEC.md", "ARCHITECTURE.md"] {
                if text.contains(missing) {
                    cited.push(format!("{}: {missing}", e.path().display()));
                }
            }
        }
    }
    for doc in documents() {
        let text = read(&doc);
        for missing in ["SPEC.md", "ARCHITECTURE.md"] {
            if text.contains(missing) {
                cited.push(format!("{}: {missing}", doc.display()));
            }
        }
    }
    assert!(cited.is_empty(), "{}", cited.join("\n"));
}
