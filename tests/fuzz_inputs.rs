//! Fuzzing every input a user hands grundy: problem specs, ICPC packages,
//! contest configs and logs, languages files and class folders.
//!
//! Each target starts from real, valid inputs (the specs under `problems/`,
//! the ICPC fixtures, a contest and a languages file as the docs show them)
//! and mutates them: values of the wrong type, huge and negative numbers,
//! empty lists, deep nesting, renamed and duplicated keys, truncation, NUL
//! bytes and stray YAML syntax, plus plain random bytes. Folders get odd
//! names, symlinks (loops, `/`, `/dev/zero`), FIFOs and deep chains.
//!
//! Every case must come back (a watchdog fails the case instead of hanging
//! the suite), must not panic, and every error must name the file. The
//! loaders are called directly, so thousands of cases fit in a few seconds;
//! a few failing cases also go through the real binary to check exit 2.
//!
//! Knobs (see SECURITY.md): `GRUNDY_FUZZ_CASES` multiplies the case counts
//! (default 1), `GRUNDY_FUZZ_SEED` picks the seed (default fixed, so that a
//! run gives the same result on any machine; a failure prints it).

mod common;

use std::ffi::OsStr;
use std::fmt::Debug;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_yaml::Value;

// ---------------------------------------------------------------------------
// Running: seed, case counts, watchdog.

const DEFAULT_SEED: u64 = 0x6772_756e_6479;

fn seed() -> u64 {
    std::env::var("GRUNDY_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED)
}

/// `base` cases, times `GRUNDY_FUZZ_CASES` for longer runs.
fn cases(base: u32) -> u32 {
    let factor = std::env::var("GRUNDY_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
        .unwrap_or(1)
        .max(1);
    base.saturating_mul(factor)
}

/// How long one case may take before it counts as a hang: generous, since
/// a case normally takes milliseconds and the machine may be loaded
/// (`GRUNDY_FUZZ_TIMEOUT` seconds, default 120).
fn watchdog() -> Duration {
    let secs = std::env::var("GRUNDY_FUZZ_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    Duration::from_secs(secs)
}

/// Runs `test` on `cases` values of `strategy`; a failure names the seed.
fn fuzz<S>(
    name: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S: Strategy,
    S::Value: Debug,
{
    let seed = seed();
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 256,
        max_shrink_time: 60_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, test) {
        panic!(
            "{name}: {e}\nseed {seed}: rerun with GRUNDY_FUZZ_SEED={seed} cargo test --release --test fuzz_inputs {name}"
        );
    }
}

/// Runs `f` on another thread; a panic there fails the case with its
/// message, and so does not coming back within [`watchdog`].
fn guarded<T: Send + 'static>(
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, TestCaseError> {
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .name("fuzz-case".into())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .map_err(|e| TestCaseError::fail(format!("cannot start a thread: {e}")))?;
    let limit = watchdog();
    match rx.recv_timeout(limit) {
        Ok(v) => {
            let _ = worker.join();
            Ok(v)
        }
        Err(mpsc::RecvTimeoutError::Timeout) => Err(TestCaseError::fail(format!(
            "{what}: no answer after {limit:?} (a hang)"
        ))),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let msg = match worker.join() {
                Err(p) => p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default(),
                Ok(()) => String::new(),
            };
            Err(TestCaseError::fail(format!("{what}: panicked: {msg}")))
        }
    }
}

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

// ---------------------------------------------------------------------------
// Mutating YAML documents.

/// A value planted somewhere in a document.
#[derive(Debug, Clone)]
enum Junk {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    EmptySeq,
    EmptyMap,
    /// `depth` nested lists (or maps), deeper than any parser should follow.
    Deep(u16, bool),
    /// A list of `n` copies of a string (long lists).
    Many(u16, String),
}

fn odd_string() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("\0".to_string()),
        Just("a\0b".to_string()),
        Just("é🦀\u{202e}\u{feff}".to_string()),
        Just("-5s".to_string()),
        Just("0ms".to_string()),
        Just("1e400s".to_string()),
        Just("99999999999999999999999999GiB".to_string()),
        Just("18446744073709551616".to_string()),
        Just("-1".to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        Just("0".to_string()),
        Just("1.5".to_string()),
        Just("256MiB".to_string()),
        Just("2s".to_string()),
        Just("nim".to_string()),
        Just("sample".to_string()),
        Just("../../../etc/passwd".to_string()),
        Just("/".to_string()),
        Just("/dev/zero".to_string()),
        Just(".".to_string()),
        Just("{src}".to_string()),
        Just("{bin} {dir} {main} {memory_mib} {".to_string()),
        Just("2025-02-30T25:61:61Z".to_string()),
        Just("99999999:99:99".to_string()),
        Just("9999999999999999h".to_string()),
        Just("x".repeat(10_000)),
        "[ -~]{0,12}",
        "\\PC{0,8}",
    ]
}

fn junk() -> impl Strategy<Value = Junk> {
    prop_oneof![
        Just(Junk::Null),
        any::<bool>().prop_map(Junk::Bool),
        prop_oneof![
            Just(i64::MIN),
            Just(-1i64),
            Just(0i64),
            Just(1i64),
            Just(i64::MAX),
            any::<i64>()
        ]
        .prop_map(Junk::Int),
        prop_oneof![Just(u64::MAX), Just(1u64 << 53), any::<u64>()].prop_map(Junk::UInt),
        prop_oneof![
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(-0.0),
            Just(1e308),
            Just(-1e-308),
            any::<f64>()
        ]
        .prop_map(Junk::Float),
        odd_string().prop_map(Junk::Str),
        Just(Junk::EmptySeq),
        Just(Junk::EmptyMap),
        (1u16..300, any::<bool>()).prop_map(|(d, m)| Junk::Deep(d, m)),
        (0u16..2000, odd_string()).prop_map(|(n, s)| Junk::Many(n, s)),
    ]
}

impl Junk {
    fn value(&self) -> Value {
        match self {
            Junk::Null => Value::Null,
            Junk::Bool(b) => Value::Bool(*b),
            Junk::Int(i) => Value::from(*i),
            Junk::UInt(u) => Value::from(*u),
            Junk::Float(f) => Value::from(*f),
            Junk::Str(s) => Value::String(s.clone()),
            Junk::EmptySeq => Value::Sequence(Vec::new()),
            Junk::EmptyMap => Value::Mapping(Default::default()),
            Junk::Deep(d, map) => {
                let mut v = Value::from(1);
                for _ in 0..*d {
                    v = if *map {
                        let mut m = serde_yaml::Mapping::new();
                        m.insert(Value::from("a"), v);
                        Value::Mapping(m)
                    } else {
                        Value::Sequence(vec![v])
                    };
                }
                v
            }
            Junk::Many(n, s) => Value::Sequence(vec![Value::String(s.clone()); *n as usize]),
        }
    }
}

/// One change to the parsed document; `Index`es pick a node (pre-order).
#[derive(Debug, Clone)]
enum Edit {
    Set(Index, Junk),
    Delete(Index),
    RenameKey(Index, String),
    /// `x` becomes `[x]`.
    Wrap(Index),
    /// A list or map becomes its first element.
    Unwrap(Index),
    /// A node is copied over another (the right shapes in the wrong places).
    Copy(Index, Index),
    /// A map gets a key that belongs elsewhere in the document.
    AddKey(Index, Index, Junk),
}

/// One change to the text after the edits.
#[derive(Debug, Clone)]
enum TextEdit {
    Truncate(Index),
    Insert(Index, Vec<u8>),
    /// Duplicates a line: duplicate keys, duplicate list items.
    DupLine(Index),
    DelLine(Index),
    Indent(Index, u8),
    Byte(Index, u8),
}

fn snippet() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..16),
        prop_oneof![
            Just("\0"),
            Just("\n  - "),
            Just(": "),
            Just(":"),
            Just("\n"),
            Just("&a "),
            Just("*a"),
            Just("*undefined"),
            Just("!!binary "),
            Just("!custom "),
            Just("{"),
            Just("["),
            Just("\""),
            Just("'"),
            Just("\t"),
            Just("#"),
            Just("🦀"),
            Just("\u{feff}"),
            Just("\n---\n"),
            Just("\n...\n"),
            Just("? "),
            Just("<<: *a\n"),
            Just("99999999999999999999999999999"),
            Just("-99999999999999999999"),
            Just("|\n"),
            Just(">-\n"),
            Just("%YAML 1.2\n"),
            Just("\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"),
        ]
        .prop_map(|s| s.as_bytes().to_vec()),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<Index>(), junk()).prop_map(|(i, j)| Edit::Set(i, j)),
        2 => any::<Index>().prop_map(Edit::Delete),
        1 => (any::<Index>(), odd_string()).prop_map(|(i, s)| Edit::RenameKey(i, s)),
        1 => any::<Index>().prop_map(Edit::Wrap),
        1 => any::<Index>().prop_map(Edit::Unwrap),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Copy(a, b)),
        2 => (any::<Index>(), any::<Index>(), junk()).prop_map(|(a, b, j)| Edit::AddKey(a, b, j)),
    ]
}

fn text_edit() -> impl Strategy<Value = TextEdit> {
    prop_oneof![
        any::<Index>().prop_map(TextEdit::Truncate),
        (any::<Index>(), snippet()).prop_map(|(i, s)| TextEdit::Insert(i, s)),
        any::<Index>().prop_map(TextEdit::DupLine),
        any::<Index>().prop_map(TextEdit::DelLine),
        (any::<Index>(), 0u8..8).prop_map(|(i, n)| TextEdit::Indent(i, n)),
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| TextEdit::Byte(i, b)),
    ]
}

/// A document to feed a loader: a mutated valid one, or random bytes.
#[derive(Debug, Clone)]
enum Doc {
    Mutant {
        base: Index,
        edits: Vec<Edit>,
        text: Vec<TextEdit>,
    },
    Bytes(Vec<u8>),
}

fn doc() -> impl Strategy<Value = Doc> {
    prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..512).prop_map(Doc::Bytes),
        8 => (
            any::<Index>(),
            proptest::collection::vec(edit(), 0..4),
            proptest::collection::vec(text_edit(), 0..3),
        )
            .prop_map(|(base, edits, text)| Doc::Mutant { base, edits, text }),
    ]
}

#[derive(Debug, Clone)]
enum Step {
    Key(Value),
    Item(usize),
}

/// The paths of every node, pre-order, the root first.
fn nodes(v: &Value) -> Vec<Vec<Step>> {
    fn go(v: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        out.push(path.clone());
        match v {
            Value::Mapping(m) => {
                for (k, child) in m {
                    path.push(Step::Key(k.clone()));
                    go(child, path, out);
                    path.pop();
                }
            }
            Value::Sequence(s) => {
                for (i, child) in s.iter().enumerate() {
                    path.push(Step::Item(i));
                    go(child, path, out);
                    path.pop();
                }
            }
            Value::Tagged(t) => go(&t.value, path, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    go(v, &mut Vec::new(), &mut out);
    out
}

fn at_mut<'a>(mut v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    for step in path {
        v = match (step, v) {
            (Step::Key(k), Value::Mapping(m)) => m.get_mut(k)?,
            (Step::Item(i), Value::Sequence(s)) => s.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(v)
}

fn at<'a>(mut v: &'a Value, path: &[Step]) -> Option<&'a Value> {
    for step in path {
        v = match (step, v) {
            (Step::Key(k), Value::Mapping(m)) => m.get(k)?,
            (Step::Item(i), Value::Sequence(s)) => s.get(*i)?,
            _ => return None,
        };
    }
    Some(v)
}

/// All the keys of a document, to plant one where it does not belong.
fn keys(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for p in nodes(v) {
        if let Some(Step::Key(k)) = p.last() {
            out.push(k.clone());
        }
    }
    out
}

fn apply_edit(doc: &mut Value, e: &Edit) {
    let paths = nodes(doc);
    let pick = |i: &Index| paths[i.index(paths.len())].clone();
    match e {
        Edit::Set(i, j) => {
            if let Some(n) = at_mut(doc, &pick(i)) {
                *n = j.value();
            }
        }
        Edit::Delete(i) => {
            let p = pick(i);
            let Some((last, parent)) = p.split_last() else {
                *doc = Value::Null;
                return;
            };
            match (last, at_mut(doc, parent)) {
                (Step::Key(k), Some(Value::Mapping(m))) => {
                    m.remove(k);
                }
                (Step::Item(i), Some(Value::Sequence(s))) if *i < s.len() => {
                    s.remove(*i);
                }
                _ => {}
            }
        }
        Edit::RenameKey(i, name) => {
            let p = pick(i);
            if let Some((Step::Key(k), parent)) = p.split_last()
                && let Some(Value::Mapping(m)) = at_mut(doc, parent)
                && let Some(v) = m.remove(k)
            {
                m.insert(Value::String(name.clone()), v);
            }
        }
        Edit::Wrap(i) => {
            if let Some(n) = at_mut(doc, &pick(i)) {
                *n = Value::Sequence(vec![n.clone()]);
            }
        }
        Edit::Unwrap(i) => {
            if let Some(n) = at_mut(doc, &pick(i)) {
                let first = match n {
                    Value::Sequence(s) => s.first().cloned(),
                    Value::Mapping(m) => m.values().next().cloned(),
                    _ => None,
                };
                if let Some(f) = first {
                    *n = f;
                }
            }
        }
        Edit::Copy(from, to) => {
            let src = at(doc, &pick(from)).cloned();
            if let (Some(src), Some(n)) = (src, at_mut(doc, &pick(to))) {
                *n = src;
            }
        }
        Edit::AddKey(i, k, j) => {
            let all = keys(doc);
            let key = if all.is_empty() {
                Value::from("x")
            } else {
                all[k.index(all.len())].clone()
            };
            if let Some(Value::Mapping(m)) = at_mut(doc, &pick(i)) {
                m.insert(key, j.value());
            }
        }
    }
}

fn apply_text(text: &mut Vec<u8>, e: &TextEdit) {
    let lines = |t: &[u8]| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, b) in t.iter().enumerate() {
            if *b == b'\n' {
                out.push((start, i + 1));
                start = i + 1;
            }
        }
        if start < t.len() {
            out.push((start, t.len()));
        }
        out
    };
    match e {
        TextEdit::Truncate(i) => {
            let n = i.index(text.len() + 1);
            text.truncate(n);
        }
        TextEdit::Insert(i, s) => {
            let n = i.index(text.len() + 1);
            text.splice(n..n, s.iter().copied());
        }
        TextEdit::DupLine(i) | TextEdit::DelLine(i) | TextEdit::Indent(i, _) => {
            let ls = lines(text);
            if ls.is_empty() {
                return;
            }
            let (a, b) = ls[i.index(ls.len())];
            match e {
                TextEdit::DupLine(_) => {
                    let line = text[a..b].to_vec();
                    text.splice(b..b, line);
                }
                TextEdit::DelLine(_) => {
                    text.drain(a..b);
                }
                TextEdit::Indent(_, n) => {
                    text.splice(a..a, std::iter::repeat_n(b' ', *n as usize));
                }
                _ => {}
            }
        }
        TextEdit::Byte(i, b) => {
            if !text.is_empty() {
                let n = i.index(text.len());
                text[n] = *b;
            }
        }
    }
}

/// The bytes of `doc`, built from one of `bases` (valid documents).
fn render(doc: &Doc, bases: &[String]) -> Vec<u8> {
    match doc {
        Doc::Bytes(b) => b.clone(),
        Doc::Mutant { base, edits, text } => {
            let base = &bases[base.index(bases.len())];
            let mut bytes = if edits.is_empty() {
                base.as_bytes().to_vec()
            } else {
                let mut v: Value = serde_yaml::from_str(base).expect("a base document is YAML");
                for e in edits {
                    apply_edit(&mut v, e);
                }
                serde_yaml::to_string(&v)
                    .expect("a value serializes")
                    .into_bytes()
            };
            for e in text {
                apply_text(&mut bytes, e);
            }
            bytes
        }
    }
}

// ---------------------------------------------------------------------------
// Mutating folders.

#[derive(Debug, Clone)]
enum LinkTarget {
    Root,
    Dot,
    Parent,
    Itself,
    Dangling,
    DevZero,
    Sibling(Index),
}

/// One change to a folder tree; `Index`es pick an entry (sorted, the root
/// first, symlinks not followed).
#[derive(Debug, Clone)]
enum FsEdit {
    Remove(Index),
    Symlink(Index, LinkTarget),
    Fifo(Index),
    AddFile(Index, Name, Vec<u8>),
    AddDir(Index, Name),
    /// A chain of nested folders.
    Deep(Index, u8),
    Write(Index, Vec<u8>),
    /// A file becomes an empty folder of the same name.
    FileToDir(Index),
}

#[derive(Debug, Clone)]
struct Name(Vec<u8>);

fn name() -> impl Strategy<Value = Name> {
    prop_oneof![
        prop_oneof![
            Just("a"),
            Just("alice"),
            Just("nim.c"),
            Just("nim.py"),
            Just("wythoff.py"),
            Just("Main.java"),
            Just("x.in"),
            Just("x.ans"),
            Just("1.in"),
            Just("1.ans"),
            Just("sample"),
            Just("secret"),
            Just("data"),
            Just("submissions"),
            Just("accepted"),
            Just("wrong_answer"),
            Just("output_validator"),
            Just("testdata.yaml"),
            Just("problem.yaml"),
            Just(".hidden"),
            Just("__MACOSX"),
            Just("é.c"),
            Just("🦀.py"),
            Just("a b.c"),
            Just("-rf.c"),
            Just("\n.c"),
            Just("UPPER.C"),
            Just("noext"),
            Just("x.in.ans"),
            Just("..."),
            Just("a.tar.gz"),
        ]
        .prop_map(|s| Name(s.as_bytes().to_vec())),
        Just(Name([b'x'; 250].to_vec())),
        Just(Name(b"\xff\xfe.c".to_vec())),
        "[a-z]{1,6}(\\.(c|py|in|ans|java|rs|cpp))?".prop_map(|s| Name(s.into_bytes())),
    ]
}

fn link_target() -> impl Strategy<Value = LinkTarget> {
    prop_oneof![
        Just(LinkTarget::Root),
        Just(LinkTarget::Dot),
        Just(LinkTarget::Parent),
        Just(LinkTarget::Itself),
        Just(LinkTarget::Dangling),
        Just(LinkTarget::DevZero),
        any::<Index>().prop_map(LinkTarget::Sibling),
    ]
}

fn fs_edit() -> impl Strategy<Value = FsEdit> {
    let bytes = proptest::collection::vec(any::<u8>(), 0..64);
    prop_oneof![
        2 => any::<Index>().prop_map(FsEdit::Remove),
        2 => (any::<Index>(), link_target()).prop_map(|(i, t)| FsEdit::Symlink(i, t)),
        1 => any::<Index>().prop_map(FsEdit::Fifo),
        3 => (any::<Index>(), name(), bytes.clone()).prop_map(|(i, n, b)| FsEdit::AddFile(i, n, b)),
        1 => (any::<Index>(), name()).prop_map(|(i, n)| FsEdit::AddDir(i, n)),
        1 => (any::<Index>(), 1u8..60).prop_map(|(i, d)| FsEdit::Deep(i, d)),
        2 => (any::<Index>(), bytes).prop_map(|(i, b)| FsEdit::Write(i, b)),
        1 => any::<Index>().prop_map(FsEdit::FileToDir),
    ]
}

/// Every entry under `root` (the root first), symlinks not followed.
fn entries(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        let p = out[i].clone();
        i += 1;
        let is_dir = std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir());
        if !is_dir {
            continue;
        }
        let Ok(rd) = std::fs::read_dir(&p) else {
            continue;
        };
        let mut children: Vec<PathBuf> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
        children.sort();
        out.extend(children);
    }
    out
}

fn remove(p: &Path) {
    let is_dir = std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
    let _ = if is_dir {
        std::fs::remove_dir_all(p)
    } else {
        std::fs::remove_file(p)
    };
}

/// Applies `e` to the tree at `root`; the root itself is never removed.
fn apply_fs(root: &Path, e: &FsEdit) {
    let all = entries(root);
    let pick = |i: &Index| all[i.index(all.len())].clone();
    let pick_below = |i: &Index| {
        if all.len() < 2 {
            None
        } else {
            Some(all[1 + i.index(all.len() - 1)].clone())
        }
    };
    let dirs: Vec<&PathBuf> = all
        .iter()
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
        .collect();
    let pick_dir = |i: &Index| dirs[i.index(dirs.len())].clone();
    match e {
        FsEdit::Remove(i) => {
            if let Some(p) = pick_below(i) {
                remove(&p);
            }
        }
        FsEdit::Symlink(i, t) => {
            let Some(p) = pick_below(i) else { return };
            let target: PathBuf = match t {
                LinkTarget::Root => "/".into(),
                LinkTarget::Dot => ".".into(),
                LinkTarget::Parent => "..".into(),
                LinkTarget::Itself => p.file_name().map(PathBuf::from).unwrap_or_default(),
                LinkTarget::Dangling => "does/not/exist".into(),
                LinkTarget::DevZero => "/dev/zero".into(),
                LinkTarget::Sibling(j) => pick(j),
            };
            remove(&p);
            let _ = std::os::unix::fs::symlink(target, &p);
        }
        FsEdit::Fifo(i) => {
            let Some(p) = pick_below(i) else { return };
            remove(&p);
            let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
                return;
            };
            // SAFETY: `c` is a NUL-terminated path that outlives the call.
            unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
        }
        FsEdit::AddFile(i, n, bytes) => {
            let p = pick_dir(i).join(OsStr::from_bytes(&n.0));
            remove(&p);
            let _ = std::fs::write(p, bytes);
        }
        FsEdit::AddDir(i, n) => {
            let _ = std::fs::create_dir_all(pick_dir(i).join(OsStr::from_bytes(&n.0)));
        }
        FsEdit::Deep(i, depth) => {
            let mut p = pick_dir(i);
            for _ in 0..*depth {
                p.push("d");
            }
            let _ = std::fs::create_dir_all(&p);
            let _ = std::fs::write(p.join("nim.c"), "int main(){}");
        }
        FsEdit::Write(i, bytes) => {
            if let Some(p) = pick_below(i)
                && std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_file())
            {
                let _ = std::fs::write(p, bytes);
            }
        }
        FsEdit::FileToDir(i) => {
            if let Some(p) = pick_below(i)
                && std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_file())
            {
                remove(&p);
                let _ = std::fs::create_dir(&p);
            }
        }
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read fixture") {
        let e = e.expect("entry");
        let dest = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).expect("copy");
        }
    }
}

/// Whether `msg` names `file` (or, for a folder, something inside it).
fn names(msg: &str, file: &Path) -> bool {
    msg.contains(&file.display().to_string())
}

// ---------------------------------------------------------------------------
// Inputs.

/// Every problem.yaml under problems/, the batch fixtures and the specs
/// kept for the keys the others lack (`tests/fixtures/fuzz_specs`).
fn spec_bases() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for root in [
        "problems",
        "tests/fixtures/batch/problems",
        "tests/fixtures/fuzz_specs",
    ] {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(manifest(root))
            .expect("problems folder")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.join("problem.yaml").is_file())
            .collect();
        dirs.sort();
        for d in dirs {
            let text = read(&d.join("problem.yaml"));
            out.push((d, text));
        }
    }
    assert!(
        out.len() >= 10,
        "the problem specs to start from are missing"
    );
    out
}

const CONTEST_BASES: [&str; 3] = [
    "title: Spring Nim Cup\nscoring: icpc\nstart: 2025-03-01T10:00:00Z\nduration: 5h\npenalty: 20\nproblems: [nim, wythoff]\ncontestants: [ana, ben]\nlog: submissions.csv\n",
    "title: Class test\nscoring: ioi\nproblems:\n  - id: nim\n    label: A\n  - id: wythoff\ncontestants:\n  - id: ana\n    name: Ana Lee\n  - ben\nsubmissions: subs/\n",
    "problems: [nim]\nsubmissions: subs\nduration: 1h30m\n",
];

const LOG_BASES: [&str; 2] = [
    "time,contestant,problem,file\n2025-03-01T10:17:00Z,ana,nim,subs/ana/nim.c\n0:20:00,ben,wythoff,subs/ben/w.py\n",
    "Time, Contestant, Problem, File\n12,ana,nim,\"a,b.c\"\n1:02:03,ben,nim,b.c\n\n",
];

const LANGUAGE_BASES: [&str; 3] = [
    "languages:\n  - id: logged-c\n    extensions: [lc]\n    source_name: main.c\n    compile: [\"/bin/sh\", \"-c\", \"cc -O2 -o {bin} {src}\"]\n    run: [\"{bin}\"]\n",
    "languages:\n  - id: python\n    time_multiplier: 2.5\n    memory_allowance: 32MiB\n    cap_address_space: false\n  - id: always-bob\n    name: Bob\n    extensions: [.bob, BOB]\n    run: [\"/bin/sh\", \"-c\", \"echo Bob\"]\n",
    "languages:\n  - id: c\n    compile: []\n    run: [\"{bin}\", \"{memory_mib}\"]\n",
];

// ---------------------------------------------------------------------------
// Targets.

/// Problem specs: `problem::load` on a mutated problem.yaml beside the real
/// problem's other files.
#[test]
fn problem_specs() {
    let bases = spec_bases();
    let texts: Vec<String> = bases.iter().map(|(_, t)| t.clone()).collect();
    fuzz(
        "problem_specs",
        cases(1500),
        (any::<Index>(), doc()),
        |(which, d)| {
            let (orig, _) = &bases[which.index(bases.len())];
            let t = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let dir = t.path().join("p");
            std::fs::create_dir(&dir).map_err(|e| TestCaseError::fail(e.to_string()))?;
            for e in std::fs::read_dir(orig).into_iter().flatten().flatten() {
                if e.file_name() != "problem.yaml" {
                    let _ = std::os::unix::fs::symlink(e.path(), dir.join(e.file_name()));
                }
            }
            let spec = dir.join("problem.yaml");
            std::fs::write(&spec, render(&d, &texts))
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let s = spec.clone();
            let r = guarded("problem::load", move || {
                grundy::problem::load(&s)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })?;
            if let Err(msg) = r {
                prop_assert!(
                    names(&msg, &spec),
                    "the error does not name {}: {msg}",
                    spec.display()
                );
            }
            Ok(())
        },
    );
}

/// ICPC packages: the fixtures with a mutated problem.yaml and a mutated
/// tree (tests, validators, submissions, testdata.yaml, links, FIFOs).
#[test]

fn icpc_packages() {
    let fixtures = [
        manifest("tests/fixtures/icpc/nimmove"),
        manifest("tests/fixtures/icpc/sumfloat"),
    ];
    let yaml: Vec<String> = fixtures
        .iter()
        .map(|f| read(&f.join("problem.yaml")))
        .collect();
    let strategy = (
        any::<Index>(),
        proptest::option::of(doc()),
        proptest::collection::vec(fs_edit(), 0..4),
        proptest::option::of(doc()),
    );
    fuzz(
        "icpc_packages",
        cases(600),
        strategy,
        |(which, d, edits, testdata)| {
            let i = which.index(fixtures.len());
            let t = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let dir = t.path().join("pkg");
            copy_tree(&fixtures[i], &dir);
            if let Some(d) = &d {
                let _ = std::fs::write(dir.join("problem.yaml"), render(d, &yaml[i..=i]));
            }
            if let Some(td) = &testdata {
                let bases = [
                    "on_reject: continue\n".to_string(),
                    "output_validator_flags: float_tolerance 1e-6\ngrading: default\n".to_string(),
                ];
                let _ = std::fs::write(dir.join("data/secret/testdata.yaml"), render(td, &bases));
            }
            for e in &edits {
                apply_fs(&dir, e);
            }
            let spec = dir.join("problem.yaml");
            let s = spec.clone();
            let r = guarded("icpc load", move || {
                grundy::problem::load(&s)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })?;
            if let Err(msg) = r {
                prop_assert!(
                    names(&msg, &dir),
                    "the error does not name a file of {}: {msg}",
                    dir.display()
                );
            }
            Ok(())
        },
    );
}

/// Writes `text` to a file named `file_name` in a fresh folder, loads it
/// with `load` under the hang guard, and checks that a refusal names it:
/// the shape every one-file target shares.
fn loads_one_file(
    what: &'static str,
    file_name: &str,
    text: Vec<u8>,
    load: fn(&std::path::Path) -> Result<(), String>,
) -> Result<(), TestCaseError> {
    let t = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
    let path = t.path().join(file_name);
    std::fs::write(&path, text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let p = path.clone();
    let r = guarded(what, move || load(&p))?;
    if let Err(msg) = r {
        prop_assert!(
            names(&msg, &path),
            "the error does not name {}: {msg}",
            path.display()
        );
    }
    Ok(())
}

/// Contest configs: `contest::config::load`.
#[test]
fn contest_configs() {
    let bases: Vec<String> = CONTEST_BASES.iter().map(|s| s.to_string()).collect();
    fuzz("contest_configs", cases(1500), doc(), |d| {
        loads_one_file("contest config", "contest.yaml", render(&d, &bases), |p| {
            grundy::batch::contest::config::load(p)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
    });
}

/// Contest logs (CSV): `contest::log::read_log`, through the same text
/// mutations (the YAML edits do not apply to CSV, so bases are kept as text).
#[test]
fn contest_logs() {
    let bases: Vec<String> = LOG_BASES.iter().map(|s| s.to_string()).collect();
    let strategy = (
        any::<Index>(),
        proptest::collection::vec(text_edit(), 0..6),
        proptest::option::of(proptest::collection::vec(any::<u8>(), 0..256)),
    );
    fuzz(
        "contest_logs",
        cases(1500),
        strategy,
        |(base, text, raw)| {
            let d = match raw {
                Some(b) => Doc::Bytes(b),
                None => Doc::Mutant {
                    base,
                    edits: Vec::new(),
                    text,
                },
            };
            loads_one_file("contest log", "submissions.csv", render(&d, &bases), |p| {
                grundy::batch::contest::log::read_log(p)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
        },
    );
}

/// Languages files: `Languages::with_config`.
#[test]
fn language_files() {
    let bases: Vec<String> = LANGUAGE_BASES.iter().map(|s| s.to_string()).collect();
    fuzz("language_files", cases(1500), doc(), |d| {
        loads_one_file(
            "languages file",
            "languages.yaml",
            render(&d, &bases),
            |p| {
                grundy::language::Languages::with_config(p)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            },
        )
    });
}

/// A class folder to start from: both layouts at once.
fn class_folder(root: &Path) {
    let files = [
        "alice/nim.c",
        "alice/wythoff.py",
        "bob/hw/nim.py",
        "carol/Main.java",
        "dave/nim.rs",
        "erin.cpp",
    ];
    for f in files {
        let p = root.join(f);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, "int main(void) { return 0; }\n").expect("write");
    }
}

/// Class folders: `grade`'s walker, in both layouts, and the contest
/// folder reader. Nothing here is an error (odd entries become issues),
/// so the checks are: it comes back, and it does not panic.
#[test]
fn class_folders() {
    fuzz(
        "class_folders",
        cases(250),
        (proptest::collection::vec(fs_edit(), 0..8), any::<bool>()),
        |(edits, one_problem)| {
            let t = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let root = t.path().join("class");
            class_folder(&root);
            for e in &edits {
                apply_fs(&root, e);
            }
            let r = root.clone();
            let walked = guarded("walk", move || {
                let languages = grundy::language::Languages::default();
                let is_problem = |s: &str| s == "nim" || s == "wythoff";
                let layout = grundy::batch::walk::Layout {
                    problem: one_problem.then_some("nim"),
                    is_problem: &is_problem,
                    languages: &languages,
                    skip: None,
                };
                let walked = grundy::batch::walk::walk(&r, &layout).map(|w| w.items.len());
                let folder = grundy::batch::contest::log::read_folder(&r, r.parent().unwrap_or(&r))
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                (walked.map_err(|e| e.to_string()), folder)
            })?;
            prop_assert!(
                walked.0.is_ok(),
                "the walk failed on a readable folder: {:?}",
                walked.0
            );
            if let Err(msg) = walked.1 {
                prop_assert!(
                    names(&msg, &root),
                    "the error does not name {}: {msg}",
                    root.display()
                );
            }
            Ok(())
        },
    );
}

// ---------------------------------------------------------------------------
// The binary: exit 2 and the file named, for broken inputs.

/// Runs `check` on mutated documents until `want` of them fail to load,
/// then runs the binary on those: exit 2 and stderr naming the file.
fn cli_cases(
    name: &str,
    bases: &[&str],
    load: impl Fn(&Path) -> bool + Clone + Send + 'static,
    args: impl Fn(&Path, &Path) -> Vec<String>,
    file_name: &str,
) {
    let bases: Vec<String> = bases.iter().map(|s| s.to_string()).collect();
    let checked = std::sync::atomic::AtomicU32::new(0);
    fuzz(name, cases(60), doc(), |d| {
        let t = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let project = t.path();
        let path = project.join(file_name);
        std::fs::create_dir_all(path.parent().unwrap_or(project))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        std::fs::write(&path, render(&d, &bases))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (l, p) = (load.clone(), path.clone());
        if guarded("load", move || l(&p))? {
            return Ok(());
        }
        checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args(project, &path))
            .arg("--cache")
            .arg(project.join("cache"))
            .env("NO_COLOR", "1")
            .env_remove("GRUNDY_LANGUAGES")
            .env_remove("GRUNDY_PROBLEMS")
            .output()
            .map_err(|e| TestCaseError::fail(format!("cannot run grundy: {e}")))?;
        let err = common::stderr(&out);
        prop_assert_eq!(out.status.code(), Some(2), "stderr: {}", err);
        prop_assert!(
            names(&err, &path),
            "stderr does not name {}: {}",
            path.display(),
            err
        );
        Ok(())
    });
    assert!(
        checked.into_inner() >= 10,
        "{name}: too few broken inputs reached the binary to mean anything"
    );
}

#[test]
fn cli_broken_specs_exit_2() {
    let bases = spec_bases();
    let texts: Vec<&str> = bases.iter().map(|(_, t)| t.as_str()).collect();
    cli_cases(
        "cli_broken_specs_exit_2",
        &texts,
        |p| grundy::problem::load(p).is_ok(),
        |project, _| {
            let sub = project.join("sol.c");
            let _ = std::fs::write(&sub, common::TOY_C);
            vec![
                "judge".into(),
                project.join("problems/p").display().to_string(),
                sub.display().to_string(),
                "--problems".into(),
                project.join("problems").display().to_string(),
            ]
        },
        "problems/p/problem.yaml",
    );
}

#[test]
fn cli_broken_contests_exit_2() {
    cli_cases(
        "cli_broken_contests_exit_2",
        &CONTEST_BASES,
        |p| grundy::batch::contest::config::load(p).is_ok(),
        |project, path| {
            vec![
                "contest".into(),
                path.display().to_string(),
                "--out".into(),
                project.join("out").display().to_string(),
            ]
        },
        "contest.yaml",
    );
}

#[test]
fn cli_broken_language_files_exit_2() {
    cli_cases(
        "cli_broken_language_files_exit_2",
        &LANGUAGE_BASES,
        |p| grundy::language::Languages::with_config(p).is_ok(),
        |project, path| {
            let sub = project.join("sol.c");
            let _ = std::fs::write(&sub, common::TOY_C);
            vec![
                "judge".into(),
                manifest("problems/nim").display().to_string(),
                sub.display().to_string(),
                "--languages".into(),
                path.display().to_string(),
            ]
        },
        "languages.yaml",
    );
}

/// ICPC packages through the binary: a package whose mutated
/// `problem.yaml` does not load makes `judge` exit 2 naming a file of it.
#[test]
fn cli_broken_icpc_packages_exit_2() {
    let fixture = manifest("tests/fixtures/icpc/nimmove");
    let bases = vec![read(&fixture.join("problem.yaml"))];
    let checked = std::sync::atomic::AtomicU32::new(0);
    fuzz("cli_broken_icpc_packages_exit_2", cases(60), doc(), |d| {
        let t = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let project = t.path();
        let dir = project.join("problems/nimmove");
        copy_tree(&fixture, &dir);
        std::fs::write(dir.join("problem.yaml"), render(&d, &bases))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let spec = dir.join("problem.yaml");
        if guarded("load", move || grundy::problem::load(&spec).is_ok())? {
            return Ok(());
        }
        checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let sub = project.join("sol.c");
        let _ = std::fs::write(&sub, common::TOY_C);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .arg("--problems")
            .arg(project.join("problems"))
            .arg("--cache")
            .arg(project.join("cache"))
            .arg("judge")
            .arg(&dir)
            .arg(&sub)
            .env("NO_COLOR", "1")
            .env_remove("GRUNDY_LANGUAGES")
            .env_remove("GRUNDY_PROBLEMS")
            .output()
            .map_err(|e| TestCaseError::fail(format!("cannot run grundy: {e}")))?;
        let err = common::stderr(&out);
        prop_assert_eq!(out.status.code(), Some(2), "stderr: {}", err);
        prop_assert!(
            names(&err, &dir),
            "stderr does not name a file of {}: {}",
            dir.display(),
            err
        );
        Ok(())
    });
    assert!(
        checked.into_inner() >= 10,
        "too few broken packages reached the binary to mean anything"
    );
}

// ---------------------------------------------------------------------------
// Hostile packages: links in and out, special files, deep YAML.

/// What a hostile package puts where a file belongs.
#[derive(Debug, Clone)]
enum Hostile {
    /// A link to a secret outside the package: absolute, or by `..`.
    Secret {
        absolute: bool,
    },
    /// A link to a file of `/proc` or `/dev` (the judge's memory map or
    /// environment, an endless device, a magic link).
    Special(&'static str),
    /// A link to another entry of the package (it stays inside).
    Inside(Index),
    /// A link to itself.
    Loop,
    Fifo,
    Socket,
    /// A character device (`/dev/zero`'s numbers; only root can make one).
    Device,
    /// `x: [[[…]]]` of this depth appended to one of the package's YAML files.
    DeepYaml(u32, Index),
}

fn hostile() -> impl Strategy<Value = Hostile> {
    prop_oneof![
        3 => any::<bool>().prop_map(|absolute| Hostile::Secret { absolute }),
        3 => prop_oneof![
            Just("/proc/self/pagemap"),
            Just("/proc/self/environ"),
            Just("/proc/self/mem"),
            Just("/proc/self/fd/0"),
            Just("/proc/self/cwd"),
            Just("/dev/zero"),
            Just("/dev/urandom"),
            Just("/"),
        ]
        .prop_map(Hostile::Special),
        2 => any::<Index>().prop_map(Hostile::Inside),
        1 => Just(Hostile::Loop),
        2 => Just(Hostile::Fifo),
        1 => Just(Hostile::Socket),
        1 => Just(Hostile::Device),
        2 => (prop_oneof![Just(65u32), Just(1000), Just(100_000)], any::<Index>())
            .prop_map(|(d, i)| Hostile::DeepYaml(d, i)),
    ]
}

/// A small package with a validator, an output validator, a submission,
/// and settings files: every kind of file the judge reads of a package.
fn hostile_base(dir: &Path) {
    let files: [(&str, &str); 11] = [
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Echo\nuuid: 5e1f\nlimits: {time_limit: 2}\n",
        ),
        ("data/sample/1.in", "3\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/secret/1.in", "4\n"),
        ("data/secret/1.ans", "4\n"),
        ("data/secret/test_group.yaml", "input_validator_args: []\n"),
        ("input_validators/v/__main__.py", "import lib\n"),
        ("input_validators/v/lib.py", "import sys\nsys.exit(42)\n"),
        ("output_validator/check.py", "import sys\nsys.exit(42)\n"),
        ("submissions/accepted/a.py", "print(input())\n"),
        (
            "submissions/submissions.yaml",
            "accepted/a.py: {permitted: [AC]}\n",
        ),
    ];
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
}

const HOSTILE_YAML: [&str; 3] = [
    "problem.yaml",
    "data/secret/test_group.yaml",
    "submissions/submissions.yaml",
];

/// Plants `h` in the package at `dir` (at the entry `at` picks); the
/// secret is `secret`.
fn plant(dir: &Path, at: &Index, h: &Hostile, secret: &Path) {
    if let Hostile::DeepYaml(depth, which) = h {
        let file = dir.join(HOSTILE_YAML[which.index(HOSTILE_YAML.len())]);
        // Only a file still a file (an earlier plant may have made it a
        // link to `/proc/self/pagemap`, which the test must not read).
        if !std::fs::symlink_metadata(&file).is_ok_and(|m| m.is_file()) {
            return;
        }
        let mut text = std::fs::read_to_string(&file).unwrap_or_default();
        let d = *depth as usize;
        text.push_str(&format!("x: {}{}\n", "[".repeat(d), "]".repeat(d)));
        let _ = std::fs::write(&file, text);
        return;
    }
    let all = entries(dir);
    let p = all[1 + at.index(all.len() - 1)].clone();
    remove(&p);
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).expect("path");
    match h {
        Hostile::Secret { absolute: true } => {
            let _ = std::os::unix::fs::symlink(secret, &p);
        }
        Hostile::Secret { absolute: false } => {
            let depth = p.strip_prefix(dir).map_or(0, |r| r.components().count());
            let up = "../".repeat(depth);
            let _ = std::os::unix::fs::symlink(format!("{up}secret.txt"), &p);
        }
        Hostile::Special(target) => {
            let _ = std::os::unix::fs::symlink(target, &p);
        }
        Hostile::Inside(j) => {
            let target = all[j.index(all.len())].clone();
            let _ = std::os::unix::fs::symlink(target, &p);
        }
        Hostile::Loop => {
            let _ = std::os::unix::fs::symlink(p.file_name().unwrap_or_default(), &p);
        }
        Hostile::Fifo => {
            // SAFETY: a NUL-terminated path that outlives the call.
            unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
        }
        Hostile::Socket => {
            // The socket file stays when the listener is dropped.
            let _ = std::os::unix::net::UnixListener::bind(&p);
        }
        Hostile::Device => {
            // SAFETY: as above; fails harmlessly when not root.
            unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o644, libc::makedev(1, 5)) };
        }
        Hostile::DeepYaml(..) => {}
    }
}

/// Whether any file under `dir` holds `needle`.
fn holds(dir: &Path, needle: &str) -> Option<PathBuf> {
    entries(dir).into_iter().find(|p| {
        std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file())
            && std::fs::read(p).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle))
    })
}

/// The process's peak resident size, in bytes.
fn peak_rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .unwrap_or(0)
        * 1024
}

/// Hostile packages through the loaders and the copy every package
/// program is built from: no panic, no hang, no secret in any copy,
/// bounded memory, and every refusal names a file of the package.
#[test]
fn hostile_package_files() {
    let strategy = proptest::collection::vec((any::<Index>(), hostile()), 1..4);
    fuzz("hostile_package_files", cases(300), strategy, |planted| {
        let t = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let secret = t.path().join("secret.txt");
        let nonce = format!("SECRET-{}", seed());
        std::fs::write(&secret, &nonce).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let dir = t.path().join("pkg");
        hostile_base(&dir);
        for (at, h) in &planted {
            plant(&dir, at, h, &secret);
        }
        let cache = t.path().join("cache");
        let (d, c) = (dir.clone(), cache.clone());
        let said = guarded("a hostile package", move || {
            let mut said = Vec::new();
            let loaded = grundy::problem::load(&d.join("problem.yaml"));
            if let Err(e) = &loaded {
                said.push(e.to_string());
            }
            let cache = match grundy::cache::Cache::open(&c) {
                Ok(c) => c,
                Err(e) => return vec![format!("cache: {e}")],
            };
            // The judge builds a loaded package's programs from copies.
            for program in [
                "input_validators/v",
                "output_validator",
                "submissions/accepted/a.py",
            ] {
                let Ok(problem) = &loaded else { break };
                if let Err(e) = grundy::problem::stage(&d.join(program), problem, &cache) {
                    said.push(e.to_string());
                }
            }
            for p in entries(&d) {
                if p.extension().is_some_and(|x| x == "in" || x == "ans")
                    && let Err(e) = grundy::problem::file::read_regular(&p)
                {
                    said.push(format!("{}: {e}", p.display()));
                }
            }
            said
        })?;
        for msg in &said {
            prop_assert!(
                !msg.starts_with("cache:"),
                "the cache could not be opened: {msg}"
            );
            prop_assert!(
                names(msg, &dir),
                "the error does not name a file of {}: {msg}",
                dir.display()
            );
            prop_assert!(!msg.contains(&nonce), "the secret in a message: {msg}");
        }
        prop_assert!(
            holds(&cache, &nonce).is_none(),
            "the secret was copied into the cache: {:?}",
            holds(&cache, &nonce)
        );
        Ok(())
    });
    // Nothing read `/proc/self/pagemap` or `/dev/zero` whole: the largest
    // file the target reads is a few bytes.
    let peak = peak_rss();
    assert!(
        peak < (1 << 30),
        "the fuzz targets' process peaked at {} MiB",
        peak >> 20
    );
}

/// Hostile packages through the binary: `grundy judge` exits 2 naming
/// the file (no hang, no crash, no secret in its output).
#[test]
fn cli_hostile_packages_exit_2() {
    let t = tempfile::tempdir().expect("tempdir");
    let secret = t.path().join("secret.txt");
    let nonce = format!("SECRET-{}", seed());
    std::fs::write(&secret, &nonce).expect("secret");
    let deep = |d: usize| format!("x: {}{}\n", "[".repeat(d), "]".repeat(d));
    type Plant = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Plant)> = vec![
        ("data/secret/1.in", {
            let s = secret.clone();
            Box::new(move |p| {
                let _ = std::fs::remove_file(p);
                std::os::unix::fs::symlink(&s, p).expect("link");
            })
        }),
        (
            "data/secret/1.ans",
            Box::new(|p| {
                let _ = std::fs::remove_file(p);
                std::os::unix::fs::symlink("/proc/self/pagemap", p).expect("link");
            }),
        ),
        (
            "data/secret/1.in",
            Box::new(|p| {
                let _ = std::fs::remove_file(p);
                let c = std::ffi::CString::new(p.as_os_str().as_bytes()).expect("path");
                // SAFETY: a NUL-terminated path.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
            }),
        ),
        (
            "output_validator/env.txt",
            Box::new(|p| std::os::unix::fs::symlink("/proc/self/environ", p).expect("link")),
        ),
        (
            "output_validator/sock",
            Box::new(|p| {
                let _ = std::os::unix::net::UnixListener::bind(p).expect("socket");
            }),
        ),
        ("problem.yaml", {
            let d = deep(100_000);
            Box::new(move |p| {
                let text = std::fs::read_to_string(p).expect("read");
                std::fs::write(p, format!("{text}{d}")).expect("write");
            })
        }),
        ("data/secret/test_group.yaml", {
            let d = deep(100_000);
            Box::new(move |p| std::fs::write(p, &d).expect("write"))
        }),
    ];
    for (k, (rel, plant)) in cases.iter().enumerate() {
        let dir = t.path().join(format!("pkg{k}"));
        hostile_base(&dir);
        plant(&dir.join(rel));
        let sub = dir.join("submissions/accepted/a.py");
        let (d, s, cache) = (dir.clone(), sub.clone(), t.path().join("cache"));
        let out = guarded("grundy judge", move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
                .arg("--cache")
                .arg(cache)
                .arg("judge")
                .arg(&d)
                .arg(&s)
                .env("NO_COLOR", "1")
                .env_remove("GRUNDY_LANGUAGES")
                .env_remove("GRUNDY_PROBLEMS")
                .output()
        })
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
        .expect("run grundy");
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{rel}: {err}");
        assert!(err.contains(rel), "{rel} not named: {err}");
        let all = format!("{}{err}", common::stdout(&out));
        assert!(!all.contains(&nonce), "{rel}: the secret in the output");
    }
}
