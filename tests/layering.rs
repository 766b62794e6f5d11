//! The layering of docs/architecture.md holds: no module of src/ imports
//! (`crate::x`) a module of its own layer or of a layer above it, and every
//! top-level module has a place in the list. A leak upwards is what turned
//! into import loops before; this test stops the next one at review time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Top-level module → its layer (1 is the bottom), read from the numbered
/// list between the `layering:begin` / `layering:end` markers.
fn layers(doc: &str) -> Result<BTreeMap<String, usize>, String> {
    let begin = doc
        .find("<!-- layering:begin -->")
        .ok_or("no `<!-- layering:begin -->` marker")?;
    let end = doc
        .find("<!-- layering:end -->")
        .ok_or("no `<!-- layering:end -->` marker")?;
    let mut out = BTreeMap::new();
    for line in doc[begin..end].lines() {
        let line = line.trim();
        let Some((number, rest)) = line.split_once(". ") else {
            continue;
        };
        let Ok(layer) = number.parse::<usize>() else {
            continue;
        };
        // Module names are the `code` spans before any ` — ` comment.
        let names = rest.split(" — ").next().unwrap_or_default();
        for name in names.split('`').skip(1).step_by(2) {
            if out.insert(name.to_string(), layer).is_some() {
                return Err(format!("`{name}` is listed twice"));
            }
        }
    }
    if out.is_empty() {
        return Err("the layering list is empty".into());
    }
    Ok(out)
}

/// The source without its `#[cfg(test)] mod tests { … }` tail: a unit test
/// may use a higher module to set up its case.
fn without_unit_tests(text: &str) -> &str {
    let mut cut = text.len();
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let after = text[at + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("mod tests") {
            cut = at;
            break;
        }
        from = at + 1;
    }
    &text[..cut]
}

/// Every `crate::name` a source names, including `crate::{a, b::c}` groups.
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in text.match_indices("crate::") {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue; // e.g. `grundy_crate::`
        }
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Each comma-separated item of the group's own level starts
            // with a module; a nested group (`a::{b, c}`) belongs to its
            // item, and the items after it are read too.
            for item in top_level_items(group) {
                let name = ident(item.trim());
                if !name.is_empty() {
                    out.push(name);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// The comma-separated items of a `{…}` group whose opening brace is just
/// before `group`, up to its closing brace; commas inside nested groups do
/// not split.
fn top_level_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for e in entries {
        let path = e.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// Every import that breaks the layering, as `file: a imports b (…)`.
fn violations(src: &Path, layers: &BTreeMap<String, usize>) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let top = rel
            .components()
            .next()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .unwrap_or_default();
        // The crate roots only declare modules; the binary's CLI uses the
        // library by its name, never through `crate::`.
        if top == "lib" || top == "main" {
            continue;
        }
        let Some(&mine) = layers.get(&top) else {
            out.push(format!(
                "{}: module `{top}` has no layer in docs/architecture.md",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable source");
        for name in imports(without_unit_tests(&text)) {
            if name == top {
                continue;
            }
            match layers.get(&name) {
                Some(&theirs) if theirs < mine => {}
                Some(&theirs) => out.push(format!(
                    "{}: `{top}` (layer {mine}) imports `{name}` (layer {theirs})",
                    rel.display()
                )),
                // `crate::SomeItem` at the root, or a macro path: not a module.
                None => {}
            }
        }
    }
    out
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_module_imports_its_own_layer_or_one_above() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let layers = layers(&doc).unwrap_or_else(|e| panic!("docs/architecture.md: {e}"));
    let found = violations(&root().join("src"), &layers);
    assert!(
        found.is_empty(),
        "imports against the layering of docs/architecture.md:\n{}",
        found.join("\n")
    );
}

#[test]
fn an_upward_import_and_an_unlisted_module_are_caught() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let src = dir.path();
    std::fs::create_dir_all(src.join("low")).expect("mkdir");
    std::fs::write(
        src.join("low/mod.rs"),
        "use crate::units::Bytes;\nuse crate::{high::Thing, low::x};\nuse crate::{low::{a, b}, units::{c, d}, top::Item};\n",
    )
    .expect("write");
    std::fs::write(src.join("high.rs"), "use crate::low::Item;\n").expect("write");
    std::fs::write(src.join("stray.rs"), "").expect("write");
    std::fs::write(
        src.join("units.rs"),
        "#[cfg(test)]\nmod tests {\n    use crate::high::Helper;\n}\n",
    )
    .expect("write");
    let doc = "<!-- layering:begin -->\n1. `units`\n2. `low` — the middle\n3. `high`\n4. `top`\n<!-- layering:end -->\n";
    let layers = layers(doc).expect("parses");
    assert_eq!(layers.len(), 4);
    let found = violations(src, &layers);
    assert_eq!(
        found,
        vec![
            "low/mod.rs: `low` (layer 2) imports `high` (layer 3)".to_string(),
            "low/mod.rs: `low` (layer 2) imports `top` (layer 4)".to_string(),
            "stray.rs: module `stray` has no layer in docs/architecture.md".to_string(),
        ]
    );
}

#[test]
fn a_module_listed_twice_is_refused() {
    let doc = "<!-- layering:begin -->\n1. `units`\n2. `units`\n<!-- layering:end -->\n";
    assert_eq!(layers(doc), Err("`units` is listed twice".to_string()));
}
