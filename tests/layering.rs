//! The layering and the crates of docs/architecture.md hold:
//! - no module imports (`crate::x`) a module of its own layer or of a layer
//!   above it, and every top-level module has a place in the list;
//! - every top-level module sits in the crate the doc names for it, and
//!   each crate depends only on crates listed before it, and on each of
//!   them for a reason (one of its modules imports one of theirs);
//! - no folder holds an import circle between its files beyond the ones
//!   known today (`KNOWN_CIRCLES`, which may only shrink);
//! - no source file under `src/` and `crates/` is longer than
//!   `MAX_LINES` beyond the ones known today (`KNOWN_LONG_FILES`, which
//!   may only shrink);
//! - no file outside the problem loader (`crates/judge/src/problem/`) names
//!   the package format's reader (`problem::icpc`), beyond the ones known
//!   today (`KNOWN_FORMAT_READERS`, which may only shrink).
//!
//! A leak upwards is what turned into import loops before; the compiler
//! keeps the crates apart, and this test stops the next leak inside a crate
//! at review time.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The code spans (`x`) of a list line, before any ` — ` comment.
fn spans(text: &str) -> impl Iterator<Item = &str> {
    let names = text.split(" — ").next().unwrap_or_default();
    names.split('`').skip(1).step_by(2)
}

/// The numbered lines between `<!-- NAME:begin -->` and `<!-- NAME:end -->`,
/// as (number, the rest of the line).
fn numbered<'a>(doc: &'a str, name: &str) -> Result<Vec<(usize, &'a str)>, String> {
    let (b, e) = (
        format!("<!-- {name}:begin -->"),
        format!("<!-- {name}:end -->"),
    );
    let begin = doc.find(&b).ok_or(format!("no `{b}` marker"))?;
    let end = doc.find(&e).ok_or(format!("no `{e}` marker"))?;
    let mut out = Vec::new();
    for line in doc[begin..end].lines() {
        let Some((number, rest)) = line.trim().split_once(". ") else {
            continue;
        };
        if let Ok(n) = number.parse::<usize>() {
            out.push((n, rest));
        }
    }
    Ok(out)
}

/// Top-level module → its layer (1 is the bottom), read from the numbered
/// list between the `layering:begin` / `layering:end` markers.
fn layers(doc: &str) -> Result<BTreeMap<String, usize>, String> {
    let mut out = BTreeMap::new();
    for (layer, rest) in numbered(doc, "layering")? {
        for name in spans(rest) {
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

/// One crate of the workspace as the doc lists it: its name (`grundy` is
/// the root package), its place (1 is the bottom) and its modules.
#[derive(Debug, PartialEq)]
struct Crate {
    name: String,
    place: usize,
    modules: BTreeSet<String>,
}

/// The crates, bottom first, read from `N. `crate`: `module` … — comment`
/// lines between the `crates:begin` / `crates:end` markers.
fn crates(doc: &str) -> Result<Vec<Crate>, String> {
    let mut out: Vec<Crate> = Vec::new();
    for (place, rest) in numbered(doc, "crates")? {
        let (name, modules) = rest
            .split_once(':')
            .ok_or(format!("crate line {place}: no `name:` before its modules"))?;
        let name = name.trim().trim_matches('`').to_string();
        if out.iter().any(|c| c.name == name) {
            return Err(format!("crate `{name}` is listed twice"));
        }
        let modules: BTreeSet<String> = spans(modules).map(str::to_string).collect();
        for m in &modules {
            if let Some(other) = out.iter().find(|c| c.modules.contains(m)) {
                return Err(format!("`{m}` is listed in `{}` and `{name}`", other.name));
            }
        }
        out.push(Crate {
            name,
            place,
            modules,
        });
    }
    if out.is_empty() {
        return Err("the crates list is empty".into());
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

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// Every `crate::name` a source names, including `crate::{a, b::c}` groups.
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
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

/// The top-level module a file of `src` belongs to; `None` for the crate
/// roots (`lib.rs`, `main.rs`, the executables of `bin/`), which only
/// declare modules or name the crates below.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let top = first.trim_end_matches(".rs").to_string();
    (!matches!(top.as_str(), "lib" | "main" | "bin")).then_some(top)
}

/// Every import that breaks the layering, as `file: a imports b (…)`, and
/// every top-level module missing from the list.
fn violations(src: &Path, layers: &BTreeMap<String, usize>) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let Some(top) = top_module(src, &file) else {
            continue;
        };
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

/// The top-level modules of a crate's `src/`, and the ones its files
/// import (`crate::x`, unit tests aside) other than their own.
fn modules_and_imports(src: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let (mut mine, mut used) = (BTreeSet::new(), BTreeSet::new());
    for file in files {
        let Some(top) = top_module(src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable source");
        used.extend(
            imports(without_unit_tests(&text))
                .into_iter()
                .filter(|n| *n != top),
        );
        mine.insert(top);
    }
    (mine, used)
}

/// The crates of ours (`grundy-x` → `x`) a manifest depends on, in any
/// dependency table.
fn our_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            // The workspace's table only names versions for its members.
            in_deps = line.ends_with("dependencies]") && !line.starts_with("[workspace");
            continue;
        }
        if in_deps && let Some(rest) = line.strip_prefix("grundy-") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            out.insert(name);
        }
    }
    out
}

/// What the crates of a workspace at `root` do against `crates`: a module
/// in another crate than listed (or in none), a crate depending on one
/// listed after it or on one it imports nothing from. `grundy` is the root
/// package (`src/`, `Cargo.toml`); the others are `crates/<name>/`.
fn crate_violations(root: &Path, crates: &[Crate]) -> Vec<String> {
    let folder = |name: &str| {
        if name == "grundy" {
            root.to_path_buf()
        } else {
            root.join("crates").join(name)
        }
    };
    let mut out = Vec::new();
    let mut found_crates = BTreeSet::new();
    if let Ok(entries) = std::fs::read_dir(root.join("crates")) {
        for e in entries.flatten() {
            if e.path().join("Cargo.toml").is_file() {
                found_crates.insert(e.file_name().to_string_lossy().into_owned());
            }
        }
    }
    for name in &found_crates {
        if !crates.iter().any(|c| &c.name == name) {
            out.push(format!(
                "crates/{name}: not in the crates list of docs/architecture.md"
            ));
        }
    }
    for c in crates {
        let dir = folder(&c.name);
        let shown = if c.name == "grundy" {
            "src".to_string()
        } else {
            format!("crates/{}/src", c.name)
        };
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            out.push(format!("{}: no Cargo.toml", dir.display()));
            continue;
        };
        let (mine, used) = modules_and_imports(&dir.join("src"));
        for m in mine.difference(&c.modules) {
            out.push(format!(
                "{shown}/{m}: module `{m}` is not listed for crate `{}`",
                c.name
            ));
        }
        for m in c.modules.difference(&mine) {
            out.push(format!(
                "{shown}: crate `{}` is listed with `{m}`, which is not there",
                c.name
            ));
        }
        for dep in our_dependencies(&manifest) {
            let Some(theirs) = crates.iter().find(|d| d.name == dep) else {
                out.push(format!(
                    "crate `{}` depends on `grundy-{dep}`, which is not listed",
                    c.name
                ));
                continue;
            };
            if theirs.place >= c.place {
                out.push(format!(
                    "crate `{}` ({}) depends on `{dep}` ({}), not listed before it",
                    c.name, c.place, theirs.place
                ));
            }
            // The root package re-exports every crate; the others depend
            // on a crate for the modules they import from it.
            if c.name != "grundy" && theirs.modules.is_disjoint(&used) {
                out.push(format!(
                    "crate `{}` depends on `{dep}` but imports none of its modules",
                    c.name
                ));
            }
        }
    }
    out
}

// ---- Import circles between the files of a folder ----

/// A module path inside a crate (`["judge", "prepare"]`); the crate root
/// is the empty path.
type ModPath = Vec<String>;

/// Module path → file for every `.rs` file under `src` (`mod.rs`, `lib.rs`
/// and `main.rs` name their folder); the executables of `bin/` aside.
fn module_files(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = BTreeMap::new();
    for file in files {
        let rel = file
            .strip_prefix(src)
            .expect("under src")
            .with_extension("");
        let mut path: ModPath = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if path.first().is_some_and(|p| p == "bin") {
            continue;
        }
        if path
            .last()
            .is_some_and(|l| matches!(l.as_str(), "mod" | "lib" | "main"))
        {
            path.pop();
        }
        out.insert(path, file);
    }
    out
}

/// The module paths a file (module `me`) names through `crate::`, `super::`
/// and `self::`, groups (`a::{b, c::d}`) spelled out.
fn named_paths(text: &str, me: &[String]) -> Vec<ModPath> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for head in ["crate::", "super::", "self::"] {
        for (i, _) in text.match_indices(head) {
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
                continue;
            }
            // `self` of a file `a/b.rs` is `a::b`; of `a/mod.rs`, `a`.
            // `super` is one step up from `self`.
            let own: ModPath = me.to_vec();
            let base = match head {
                "crate::" => Vec::new(),
                "self::" => own,
                _ => {
                    let mut b = own;
                    b.pop();
                    b
                }
            };
            spell(&text[i + head.len()..], base, &mut out);
        }
    }
    out
}

/// Reads `a::b::{c, d::e}` from the start of `text` after `base`, pushing
/// each full path.
fn spell(text: &str, mut base: ModPath, out: &mut Vec<ModPath>) {
    let mut rest = text;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            for item in top_level_items(group) {
                spell(item.trim(), base.clone(), out);
            }
            return;
        }
        let name = ident(rest);
        if name.is_empty() {
            break;
        }
        rest = &rest[name.len()..];
        if name == "super" {
            base.pop();
        } else if name != "self" {
            base.push(name);
        }
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    out.push(base);
}

/// Which file imports which, inside one crate: `a → b` when `a` names a
/// path whose longest module prefix is `b`, neither `a` nor one of its
/// ancestors.
fn file_imports(src: &Path) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mods = module_files(src);
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (me, file) in &mods {
        let text = std::fs::read_to_string(file).expect("readable source");
        for p in named_paths(without_unit_tests(&text), me) {
            for k in (1..=p.len()).rev() {
                let t = &p[..k];
                if mods.contains_key(t) {
                    if t != me.as_slice() && !me.starts_with(t) {
                        edges.entry(me.clone()).or_default().insert(t.to_vec());
                    }
                    break;
                }
            }
        }
    }
    edges
}

/// The strongly connected parts of more than one module (Tarjan), each
/// as its sorted module names (`judge/prepare`).
fn circles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on: BTreeSet<&'a ModPath>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a ModPath) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on.insert(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut part = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    part.push(w.join("/"));
                    if w == v {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    self.out.push(part);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.out.sort();
    walk.out
}

/// The circles between files that exist today, per crate source folder:
/// they may shrink or go (then remove them here), never grow or multiple.
const KNOWN_CIRCLES: &[(&str, &[&str])] = &[];

/// The circles of `found` (per source folder) that no known circle
/// covers, and the known ones that no longer exist.
fn circle_violations(found: &[(String, Vec<String>)], known: &[(&str, &[&str])]) -> Vec<String> {
    let mut out = Vec::new();
    for (src, part) in found {
        let covered = known
            .iter()
            .any(|(s, k)| s == src && part.iter().all(|m| k.contains(&m.as_str())));
        if !covered {
            out.push(format!(
                "{src}: a new import circle between {}",
                part.join(", ")
            ));
        }
    }
    for (src, k) in known {
        let still = found
            .iter()
            .any(|(s, part)| s == src && part.iter().any(|m| k.contains(&m.as_str())));
        if !still {
            out.push(format!(
                "{src}: the circle between {} is gone: take it out of KNOWN_CIRCLES",
                k.join(", ")
            ));
        }
    }
    out
}

// ---- Source files too long to read as one concept ----

/// The most lines a source file may have; a longer one is split by
/// concept, each part named for what it is.
const MAX_LINES: usize = 600;

/// The source files allowed to be longer than `MAX_LINES`: none today.
/// A generated table may be listed here, with why; a file that grows is
/// split by concept instead.
const KNOWN_LONG_FILES: &[&str] = &[];

/// Every `.rs` file under `folders` (relative to `root`) longer than
/// `MAX_LINES`, as (its path relative to `root`, its line count), sorted.
fn long_files(root: &Path, folders: &[&str]) -> Vec<(String, usize)> {
    let mut files = Vec::new();
    for f in folders {
        let dir = root.join(f);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
    }
    let mut out = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let lines = text.lines().count();
        if lines > MAX_LINES {
            let rel = file.strip_prefix(root).expect("under the root");
            out.push((rel.to_string_lossy().into_owned(), lines));
        }
    }
    out.sort();
    out
}

/// The long files of `found` that `known` does not list, and the known
/// ones that are no longer long (or no longer there).
fn long_file_violations(found: &[(String, usize)], known: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (file, lines) in found {
        if !known.contains(&file.as_str()) {
            out.push(format!(
                "{file}: {lines} lines, more than {MAX_LINES}: split it by concept"
            ));
        }
    }
    for k in known {
        if !found.iter().any(|(f, _)| f == k) {
            out.push(format!(
                "{k}: no longer over {MAX_LINES} lines: take it out of KNOWN_LONG_FILES"
            ));
        }
    }
    out
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A small tree of files in a temporary folder, for the self-tests: each
/// file written with the folders above it.
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new() -> Scratch {
        Scratch(tempfile::tempdir().expect("a temporary folder"))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn write(&self, path: &str, text: &str) {
        let p = self.path().join(path);
        std::fs::create_dir_all(p.parent().expect("a folder")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
}

fn doc() -> String {
    std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc")
}

/// The source folders of the workspace, relative to the root: `src` and
/// `crates/*/src`.
fn source_folders() -> Vec<String> {
    let mut out = vec!["src".to_string()];
    let mut found: Vec<String> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .flatten()
        .filter(|e| e.path().join("src").is_dir())
        .map(|e| format!("crates/{}/src", e.file_name().to_string_lossy()))
        .collect();
    found.sort();
    out.extend(found);
    out
}

#[test]
fn no_module_imports_its_own_layer_or_one_above() {
    let layers = layers(&doc()).unwrap_or_else(|e| panic!("docs/architecture.md: {e}"));
    let mut found = Vec::new();
    for src in source_folders() {
        found.extend(
            violations(&root().join(&src), &layers)
                .into_iter()
                .map(|v| format!("{src}/{v}")),
        );
    }
    assert!(
        found.is_empty(),
        "imports against the layering of docs/architecture.md:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_module_is_in_its_crate_and_crates_depend_only_downwards() {
    let doc = doc();
    let crates = crates(&doc).unwrap_or_else(|e| panic!("docs/architecture.md: {e}"));
    let layers = layers(&doc).unwrap_or_else(|e| panic!("docs/architecture.md: {e}"));
    // The two lists name the same modules.
    let in_crates: BTreeSet<&String> = crates.iter().flat_map(|c| &c.modules).collect();
    let in_layers: BTreeSet<&String> = layers.keys().collect();
    assert_eq!(
        in_crates, in_layers,
        "docs/architecture.md: the crates and the layers list different modules"
    );
    let found = crate_violations(root(), &crates);
    assert!(
        found.is_empty(),
        "the crates against docs/architecture.md:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_sandbox_depends_on_no_crate_of_ours_but_units() {
    let manifest =
        std::fs::read_to_string(root().join("crates/sandbox/Cargo.toml")).expect("its manifest");
    assert_eq!(
        our_dependencies(&manifest),
        BTreeSet::from(["units".to_string()])
    );
}

#[test]
fn no_new_import_circle_between_the_files_of_a_folder() {
    let mut found = Vec::new();
    for src in source_folders() {
        for part in circles(&file_imports(&root().join(&src))) {
            found.push((src.clone(), part));
        }
    }
    let wrong = circle_violations(&found, KNOWN_CIRCLES);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_new_source_file_over_the_line_limit() {
    let wrong = long_file_violations(&long_files(root(), &["src", "crates"]), KNOWN_LONG_FILES);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn an_upward_import_and_an_unlisted_module_are_caught() {
    let tree = Scratch::new();
    tree.write(
        "low/mod.rs",
        "use crate::units::Bytes;\nuse crate::{high::Thing, low::x};\nuse crate::{low::{a, b}, units::{c, d}, top::Item};\n",
    );
    tree.write("high.rs", "use crate::low::Item;\n");
    tree.write("stray.rs", "");
    tree.write(
        "units.rs",
        "#[cfg(test)]\nmod tests {\n    use crate::high::Helper;\n}\n",
    );
    let src = tree.path();
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
    let doc = "<!-- crates:begin -->\n1. `a`: `x`\n2. `b`: `y` `x` — more\n<!-- crates:end -->\n";
    assert_eq!(
        crates(doc).map(|_| ()),
        Err("`x` is listed in `a` and `b`".to_string())
    );
}

#[test]
fn a_misplaced_module_and_a_dependency_upwards_or_unused_are_caught() {
    let tree = Scratch::new();
    let root = tree.path();
    let manifest = |name: &str, deps: &[&str]| {
        let mut t = format!("[package]\nname = \"grundy-{name}\"\n\n[dependencies]\n");
        for d in deps {
            t += &format!("grundy-{d}.workspace = true\n");
        }
        t + "libc = \"0.2\"\n\n[dev-dependencies]\ntempfile.workspace = true\n"
    };
    tree.write("Cargo.toml", "[package]\nname = \"grundy\"\n");
    tree.write("src/lib.rs", "");
    tree.write("src/main.rs", "");
    tree.write("src/cli/mod.rs", "");
    // `low`: its own module, and one that belongs to `mid`.
    tree.write("crates/low/Cargo.toml", &manifest("low", &["mid"]));
    tree.write(
        "crates/low/src/lib.rs",
        "use grundy_mid::m;\npub mod a;\npub mod stray;\n",
    );
    tree.write("crates/low/src/a.rs", "use crate::m::X;\n");
    tree.write("crates/low/src/stray.rs", "");
    // `mid` depends on `low` but imports nothing of it.
    tree.write("crates/mid/Cargo.toml", &manifest("mid", &["low"]));
    tree.write("crates/mid/src/lib.rs", "pub mod m;\n");
    tree.write("crates/mid/src/m/mod.rs", "pub struct X;\n");
    // A crate the doc does not list.
    tree.write("crates/extra/Cargo.toml", &manifest("extra", &[]));
    let doc = "<!-- crates:begin -->\n1. `low`: `a` — the bottom\n2. `mid`: `m` `gone`\n3. `grundy`: `cli`\n<!-- crates:end -->\n";
    let crates = crates(doc).expect("parses");
    assert_eq!(crates.len(), 3);
    assert_eq!(
        crates[1].modules,
        BTreeSet::from(["m".into(), "gone".into()])
    );
    let found = crate_violations(root, &crates);
    assert_eq!(
        found,
        vec![
            "crates/extra: not in the crates list of docs/architecture.md".to_string(),
            "crates/low/src/stray: module `stray` is not listed for crate `low`".to_string(),
            "crate `low` (1) depends on `mid` (2), not listed before it".to_string(),
            "crates/mid/src: crate `mid` is listed with `gone`, which is not there".to_string(),
            "crate `mid` depends on `low` but imports none of its modules".to_string(),
        ]
    );
}

#[test]
fn a_new_circle_is_caught_and_a_gone_one_must_leave_the_list() {
    let tree = Scratch::new();
    let src = tree.path();
    tree.write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n");
    // a/x ↔ a/y through `super::` and a group.
    tree.write("a/mod.rs", "mod x;\nmod y;\nmod z;\n");
    tree.write("a/x.rs", "use super::{y::Thing, z};\n");
    tree.write("a/y.rs", "use crate::a::x::Other;\n");
    // z → x would close a circle, but only in its unit tests.
    tree.write(
        "a/z.rs",
        "use self::inner::Q;\nuse super::super::c::W;\n#[cfg(test)]\nmod tests {\n    use crate::a::x;\n}\n",
    );
    tree.write("b.rs", "use crate::a::z;\n");
    tree.write("c.rs", "");
    let edges = file_imports(src);
    let name = |p: &str| p.split('/').map(str::to_string).collect::<ModPath>();
    assert_eq!(
        edges.get(&name("a/x")),
        Some(&BTreeSet::from([name("a/y"), name("a/z")]))
    );
    assert_eq!(edges.get(&name("a/z")), Some(&BTreeSet::from([name("c")])));
    let found: Vec<(String, Vec<String>)> = circles(&edges)
        .into_iter()
        .map(|c| ("src".to_string(), c))
        .collect();
    assert_eq!(
        found,
        vec![(
            "src".to_string(),
            vec!["a/x".to_string(), "a/y".to_string()]
        )]
    );
    assert_eq!(
        circle_violations(&found, &[]),
        vec!["src: a new import circle between a/x, a/y".to_string()]
    );
    assert!(circle_violations(&found, &[("src", &["a/x", "a/y", "a/w"])]).is_empty());
    assert_eq!(
        circle_violations(&found, &[("src", &["a/x", "a/y"]), ("src", &["b", "c"])]),
        vec!["src: the circle between b, c is gone: take it out of KNOWN_CIRCLES".to_string()]
    );
}

#[test]
fn a_new_long_file_is_caught_and_a_shortened_one_must_leave_the_list() {
    let tree = Scratch::new();
    let root = tree.path();
    let write = |path: &str, lines: usize| tree.write(path, &"// a line\n".repeat(lines));
    write("src/at_the_limit.rs", MAX_LINES);
    write("src/deep/over.rs", MAX_LINES + 1);
    write("crates/a/src/known.rs", MAX_LINES + 40);
    write("crates/a/src/split.rs", 10);
    // Not Rust, and outside the folders looked at: never counted.
    write("crates/a/src/table.md", MAX_LINES * 2);
    write("tests/long.rs", MAX_LINES * 2);
    let found = long_files(root, &["src", "crates"]);
    assert_eq!(
        found,
        vec![
            ("crates/a/src/known.rs".to_string(), MAX_LINES + 40),
            ("src/deep/over.rs".to_string(), MAX_LINES + 1),
        ]
    );
    assert_eq!(
        long_file_violations(&found, &["crates/a/src/known.rs", "crates/a/src/split.rs"]),
        vec![
            format!(
                "src/deep/over.rs: {} lines, more than {MAX_LINES}: split it by concept",
                MAX_LINES + 1
            ),
            format!(
                "crates/a/src/split.rs: no longer over {MAX_LINES} lines: take it out of KNOWN_LONG_FILES"
            ),
        ]
    );
    assert!(
        long_file_violations(&found, &["crates/a/src/known.rs", "src/deep/over.rs"]).is_empty()
    );
}

// ---- The problem package format stays inside the loader ----

/// The folder of the problem loader: the only one that may name the
/// package format's reader (`problem::icpc`). Everything else reads what the
/// loader put in the problem model.
const LOADER: &str = "crates/judge/src/problem/";

/// The files outside the loader that still name the format's reader
/// today: they may leave the list, no other file may join it.
const KNOWN_FORMAT_READERS: &[&str] = &[];

/// Every `.rs` file under `folders` (relative to `root`) and outside
/// [`LOADER`] whose code names the format's reader, sorted.
fn format_readers(root: &Path, folders: &[String]) -> Vec<String> {
    let mut files = Vec::new();
    for f in folders {
        let dir = root.join(f);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
    }
    let needle = concat!("icpc", "::");
    let mut out: Vec<String> = files
        .into_iter()
        .filter_map(|file| {
            let rel = file.strip_prefix(root).ok()?.to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            (!rel.starts_with(LOADER) && text.contains(needle)).then_some(rel)
        })
        .collect();
    out.sort();
    out
}

/// The readers of `found` that `known` does not list, and the known ones
/// that no longer are.
fn format_reader_violations(found: &[String], known: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for f in found {
        if !known.contains(&f.as_str()) {
            out.push(format!(
                "{f}: reads the problem package format past the loader: take what it needs from the problem model (problem::PackageFacts)"
            ));
        }
    }
    for k in known {
        if !found.iter().any(|f| f == k) {
            out.push(format!(
                "{k}: no longer reads the package format: take it out of KNOWN_FORMAT_READERS"
            ));
        }
    }
    out
}

#[test]
fn only_the_loader_reads_the_problem_package_format() {
    let wrong = format_reader_violations(
        &format_readers(root(), &source_folders()),
        KNOWN_FORMAT_READERS,
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_format_reader_past_the_loader_is_caught() {
    let tree = Scratch::new();
    let root = tree.path();
    let reads = concat!("use crate::problem::", "icpc::stage;\n");
    tree.write("crates/judge/src/problem/icpc/mod.rs", reads);
    tree.write("crates/judge/src/problem/mod.rs", reads);
    tree.write("crates/judge/src/verify.rs", reads);
    tree.write("crates/judge/src/judge/known.rs", reads);
    tree.write(
        "crates/judge/src/judge/clean.rs",
        "use crate::problem::Problem;\n",
    );
    tree.write(
        "src/cli/export.rs",
        concat!("grundy::problem::", "icpc::statement_text"),
    );
    let folders = ["src".to_string(), "crates/judge/src".to_string()];
    let found = format_readers(root, &folders);
    assert_eq!(
        found,
        vec![
            "crates/judge/src/judge/known.rs".to_string(),
            "crates/judge/src/verify.rs".to_string(),
            "src/cli/export.rs".to_string(),
        ]
    );
    assert_eq!(
        format_reader_violations(
            &found,
            &["crates/judge/src/verify.rs", "crates/judge/src/judge/gone.rs"]
        ),
        vec![
            "crates/judge/src/judge/known.rs: reads the problem package format past the loader: take what it needs from the problem model (problem::PackageFacts)".to_string(),
            "src/cli/export.rs: reads the problem package format past the loader: take what it needs from the problem model (problem::PackageFacts)".to_string(),
            "crates/judge/src/judge/gone.rs: no longer reads the package format: take it out of KNOWN_FORMAT_READERS".to_string(),
        ]
    );
}

// ---- The module table of docs/architecture.md ----

/// The rows of the module table (`| module | owns | knows nothing of |`):
/// each module's name (`cli/ (binary)` is `cli`) and the files and folders
/// its row names (the code spans ending in `.rs` or `/`).
fn module_table(doc: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let start = doc
        .find("| module | owns |")
        .ok_or("no `| module | owns |` table")?;
    let mut out = Vec::new();
    for line in doc[start..].lines().skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.split('|').collect();
        let (Some(name), Some(owns)) = (cells.get(1), cells.get(2)) else {
            return Err(format!("a row without its cells: {line}"));
        };
        let name = name
            .split('`')
            .nth(1)
            .ok_or(format!("a row without a module name: {line}"))?
            .trim_end_matches('/')
            .to_string();
        let files = owns
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|s| s.ends_with(".rs") || s.ends_with('/'))
            .map(str::to_string)
            .collect();
        out.push((name, files));
    }
    Ok(out)
}

/// What the module table says that the code does not: a module of the
/// layering with no row, a row for a module that is not in the layering,
/// and a file or folder a row names that is not in its module (under the
/// module's folder, or under the source folder when it starts with the
/// module's name) in any of `sources` (relative to `root`).
fn table_violations(
    root: &Path,
    sources: &[String],
    table: &[(String, Vec<String>)],
    layers: &BTreeMap<String, usize>,
) -> Vec<String> {
    let mut out = Vec::new();
    let rows: BTreeSet<&String> = table.iter().map(|(m, _)| m).collect();
    for m in layers.keys().filter(|m| !rows.contains(m)) {
        out.push(format!(
            "`{m}` is in the layering but has no row in the module table"
        ));
    }
    for (m, files) in table {
        if !layers.contains_key(m) {
            out.push(format!(
                "the module table has a row for `{m}`, which is not in the layering"
            ));
            continue;
        }
        let folders: Vec<PathBuf> = sources
            .iter()
            .map(|s| root.join(s))
            .filter(|s| s.join(m).is_dir() || s.join(format!("{m}.rs")).is_file())
            .collect();
        for f in files {
            let name = f.trim_end_matches('/');
            let found = folders.iter().any(|src| {
                let mut under = Vec::new();
                rust_like_paths(&src.join(m), &mut under);
                under.iter().any(|p| p.ends_with(name))
                    || (f.starts_with(&format!("{m}/")) && src.join(name).exists())
            });
            if !found {
                out.push(format!(
                    "the `{m}` row names `{f}`, which is not in that module"
                ));
            }
        }
    }
    out
}

/// Every file and folder under `dir`.
fn rust_like_paths(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        out.push(p.clone());
        if p.is_dir() {
            rust_like_paths(&p, out);
        }
    }
}

#[test]
fn the_module_table_names_what_is_there() {
    let doc = doc();
    let layers = layers(&doc).unwrap_or_else(|e| panic!("docs/architecture.md: {e}"));
    let table = module_table(&doc).unwrap_or_else(|e| panic!("docs/architecture.md: {e}"));
    let wrong = table_violations(root(), &source_folders(), &table, &layers);
    assert!(
        wrong.is_empty(),
        "docs/architecture.md's module table against the code:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_stale_row_a_missing_row_and_a_gone_file_are_caught() {
    let tree = Scratch::new();
    let root = tree.path();
    for f in [
        "src/a/mod.rs",
        "src/a/deep/x.rs",
        "src/b.rs",
        "crates/c/src/c/y.rs",
    ] {
        tree.write(f, "");
    }
    let doc = "| module | owns | knows nothing of |\n|---|---|---|\n\
               | `a` | `x.rs` and `deep/`, `a/deep/x.rs`, not `gone.rs` | - |\n\
               | `c` | `y.rs`, `Thing` | - |\n\
               | `old` | `z.rs` | - |\n\nAfter the table: `w.rs`\n";
    let table = module_table(doc).expect("a table");
    assert_eq!(table.len(), 3);
    let layers: BTreeMap<String, usize> = [("a", 1), ("b", 2), ("c", 2)]
        .into_iter()
        .map(|(m, l)| (m.to_string(), l))
        .collect();
    let sources = vec!["src".to_string(), "crates/c/src".to_string()];
    assert_eq!(
        table_violations(root, &sources, &table, &layers),
        vec![
            "`b` is in the layering but has no row in the module table".to_string(),
            "the `a` row names `gone.rs`, which is not in that module".to_string(),
            "the module table has a row for `old`, which is not in the layering".to_string(),
        ]
    );
}
