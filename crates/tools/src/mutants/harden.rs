//! `grundy mutants --harden`: each survivor's shrunk input becomes a new
//! handmade group of the spec, named for the change it rejects.
//!
//! The spec is edited as text, never re-serialised: the new groups are
//! inserted at the end of the `groups:` list with the list's own
//! indentation, so comments and layout stay as the setter wrote them and
//! the change is a plain addition in a diff.

use std::collections::HashSet;
use std::path::Path;

use super::MutantsError;
use super::programs::Program;
use super::source::{Class, Mutant};
use crate::stress::Counterexample;

/// Points of each new group. The score is scaled to 100 over all points,
/// so a new group weighs about as much as a small group of the catalog's
/// specs (10–20 of 100) without making the older groups worthless.
pub const POINTS: u32 = 5;

/// One group to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGroup {
    pub name: String,
    pub comment: String,
    pub input: String,
}

/// The name of the group that kills `mutant` of `program`:
/// `anti-mutant-<line>-<kind>` for the reference (as older specs have
/// them), `anti-mutant-<file>-<line>-<kind>` for another program
/// (`anti-mutant-solution-cpp-7-narrow-long-long-to-int`).
pub fn group_base(program: &Program, mutant: &Mutant) -> String {
    if program.reference {
        format!("anti-mutant-{}-{}", mutant.line, mutant.kind)
    } else {
        format!(
            "anti-mutant-{}-{}-{}",
            program.slug(),
            mutant.line,
            mutant.kind
        )
    }
}

/// The groups that reject `survivors`, one per distinct input, named after
/// the change ([`group_base`]) and never reusing a name the spec
/// (`existing`) already has. A representation mutant's comment names the
/// representation the test kills.
pub fn groups_for<'a>(
    survivors: impl IntoIterator<Item = (&'a Program, &'a Mutant, &'a Counterexample)>,
    existing: &[String],
) -> Vec<NewGroup> {
    let mut names: HashSet<String> = existing.iter().cloned().collect();
    let mut inputs = HashSet::new();
    let mut out = Vec::new();
    for (p, m, c) in survivors {
        if c.input.is_empty() || !inputs.insert(c.input.clone()) {
            continue;
        }
        let base = group_base(p, m);
        let mut name = base.clone();
        let mut k = 2;
        while !names.insert(name.clone()) {
            name = format!("{base}-{k}");
            k += 1;
        }
        let program = if p.reference {
            "the reference".to_string()
        } else {
            format!("{} ({})", p.file_name(), p.language)
        };
        let what = match m.class {
            Class::Representation => "kills the representation",
            Class::Logic => "kills the change",
        };
        out.push(NewGroup {
            name,
            comment: format!(
                "Added by `grundy mutants --harden`: {what} \"{}\" ({program}, line {}), \
                 which passed every other test and is wrong here.",
                m.description, m.line
            ),
            input: c.input.clone(),
        });
    }
    out
}

/// `text` (a problem.yaml) with `groups` added at the end of its `groups:`
/// list; `None` when the file has no block-style top-level `groups:` list
/// to extend.
pub fn insert_groups(text: &str, groups: &[NewGroup]) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let start = lines.iter().position(|l| l.trim_end() == "groups:")?;
    // The list runs until the next top-level key; comments and blank lines
    // just before that key belong to it.
    let mut end = lines.len();
    for (i, l) in lines.iter().enumerate().skip(start + 1) {
        let top_level = !l.starts_with([' ', '\t', '#', '\n', '\r', '-']);
        if top_level {
            end = i;
            break;
        }
    }
    while end > start + 1 {
        let l = lines[end - 1].trim();
        if l.is_empty() || (lines[end - 1].starts_with('#') && end < lines.len()) {
            end -= 1;
        } else {
            break;
        }
    }
    let indent = lines[start + 1..end]
        .iter()
        .find_map(|l| {
            let t = l.trim_start_matches(' ');
            t.starts_with("- ").then(|| l.len() - t.len())
        })
        .unwrap_or(2);
    let pad = " ".repeat(indent);
    let mut block = String::new();
    for g in groups {
        block.push_str(&format!("{pad}# {}\n", g.comment));
        block.push_str(&format!("{pad}- name: {}\n", g.name));
        block.push_str(&format!("{pad}  points: {POINTS}\n"));
        block.push_str(&format!("{pad}  tests:\n"));
        block.push_str(&format!("{pad}    - input: {}\n", quote(&g.input)));
    }
    let mut out: String = lines[..end].concat();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&block);
    out.push_str(&lines[end..].concat());
    Some(out)
}

/// A YAML double-quoted scalar holding `s` exactly.
fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            '\r' => q.push_str("\\r"),
            c if c.is_control() => q.push_str(&format!("\\x{:02x}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// Adds `groups` to the spec file at `path`; the file is left as it was if
/// the result would not load.
pub fn write(path: &Path, groups: &[NewGroup]) -> Result<(), MutantsError> {
    if groups.is_empty() {
        return Ok(());
    }
    let text = crate::problem::file::read_text(path).map_err(|source| MutantsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let new = insert_groups(&text, groups).ok_or_else(|| MutantsError::Harden {
        path: path.to_path_buf(),
        why: "no block-style `groups:` list to add the new groups to".into(),
    })?;
    let write = |t: &str| {
        std::fs::write(path, t).map_err(|source| MutantsError::Write {
            path: path.to_path_buf(),
            source,
        })
    };
    write(&new)?;
    if let Err(e) = crate::problem::load(path) {
        write(&text)?;
        return Err(MutantsError::Harden {
            path: path.to_path_buf(),
            why: format!("the hardened spec would not load ({e}); left unchanged"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = "id: toy\n# top\ngroups:\n  - name: small\n    points: 40\n    tests:\n      - input: \"1\\n1\\n\"\n  # big ones\n  - name: large\n    points: 60\n    tests:\n      - input: \"1\\n2\\n\"\n\n# trailing comment of the next key\nchecker: tokens\n";

    fn group(name: &str, input: &str) -> NewGroup {
        NewGroup {
            name: name.into(),
            comment: "why".into(),
            input: input.into(),
        }
    }

    #[test]
    fn groups_go_at_the_end_of_the_list_keeping_the_rest() {
        let out = insert_groups(SPEC, &[group("anti-mutant-3-eq-to-ne", "2\n2 1\n")])
            .expect("has groups");
        let expected_tail = "      - input: \"1\\n2\\n\"\n  # why\n  - name: anti-mutant-3-eq-to-ne\n    points: 5\n    tests:\n      - input: \"2\\n2 1\\n\"\n\n# trailing comment of the next key\nchecker: tokens\n";
        assert!(out.ends_with(expected_tail), "{out}");
        assert!(out.starts_with("id: toy\n# top\ngroups:\n  - name: small\n"));
        let value: serde_yaml::Value = serde_yaml::from_str(&out).expect("still YAML");
        let groups = value["groups"].as_sequence().expect("a list");
        assert_eq!(groups.len(), 3);
        assert_eq!(groups[2]["tests"][0]["input"].as_str(), Some("2\n2 1\n"));
    }

    #[test]
    fn list_at_the_end_of_the_file_without_indent() {
        let spec = "id: toy\ngroups:\n- name: a\n  tests:\n    - input: \"1\"";
        let out = insert_groups(spec, &[group("b", "q\"\\")]).expect("has groups");
        let value: serde_yaml::Value = serde_yaml::from_str(&out).expect("still YAML");
        assert_eq!(value["groups"][1]["name"].as_str(), Some("b"));
        assert_eq!(
            value["groups"][1]["tests"][0]["input"].as_str(),
            Some("q\"\\")
        );
        assert!(insert_groups("id: x\n", &[group("b", "1")]).is_none());
    }

    #[test]
    fn a_submission_s_group_names_its_file_and_representation() {
        let program = Program {
            path: "problems/x/submissions/accepted/solution.cpp".into(),
            language: crate::mutants::Language::Cpp,
            reference: false,
        };
        let m = Mutant {
            index: 4,
            line: 7,
            kind: "narrow-long-long-to-int".into(),
            class: Class::Representation,
            description:
                "narrow long long to int in long long x = 0;: a value above 2^31 - 1 no longer fits"
                    .into(),
            source: String::new(),
        };
        let c = Counterexample {
            input: "1\n4294967296\n".into(),
            expected: String::new(),
            actual: String::new(),
            verdict: crate::verdict::Verdict::WA,
            message: String::new(),
            found_tokens: 2,
            tokens: 2,
            reproduce: String::new(),
        };
        let g = groups_for([(&program, &m, &c)], &[]);
        assert_eq!(
            g[0].name,
            "anti-mutant-solution-cpp-7-narrow-long-long-to-int"
        );
        assert!(
            g[0].comment
                .contains("kills the representation \"narrow long long to int")
                && g[0].comment.contains("solution.cpp (C++), line 7"),
            "{}",
            g[0].comment
        );
    }

    #[test]
    fn names_are_unique_and_inputs_distinct() {
        let m = |line, kind: &str| Mutant {
            index: 1,
            line,
            kind: kind.into(),
            class: Class::Logic,
            description: "d".into(),
            source: String::new(),
        };
        let reference = Program {
            path: "reference/toy.rs".into(),
            language: crate::mutants::Language::Rust,
            reference: true,
        };
        let c = |input: &str| Counterexample {
            input: input.into(),
            expected: String::new(),
            actual: String::new(),
            verdict: crate::verdict::Verdict::WA,
            message: String::new(),
            found_tokens: 0,
            tokens: 0,
            reproduce: String::new(),
        };
        let (m1, m2, m3) = (m(3, "eq-to-ne"), m(3, "eq-to-ne"), m(4, "x"));
        let (c1, c2, c3) = (c("1"), c("2"), c("1"));
        let g = groups_for(
            [
                (&reference, &m1, &c1),
                (&reference, &m2, &c2),
                (&reference, &m3, &c3),
            ],
            &["anti-mutant-3-eq-to-ne".to_string()],
        );
        let names: Vec<_> = g.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(
            names,
            ["anti-mutant-3-eq-to-ne-2", "anti-mutant-3-eq-to-ne-3"]
        );
    }
}
