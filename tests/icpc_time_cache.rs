//! A package that states no time limit has it derived from its known
//! submissions once: the measurement is kept in the cache under a key of
//! everything it depends on, so the next command reuses it (its note says
//! so, with the same figures) and a changed submission is measured again.
//! Each test has a cache folder of its own, so that what it counts is its
//! own doing. Real processes; no assertion depends on the machine's speed.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::INC_C as ACCEPTED;
use common::{Project, stderr, stdout};

fn package(p: &Project) -> PathBuf {
    p.write(
        "inc/problem.yaml",
        "problem_format_version: 2025-09\nname: Increment\nuuid: 5d1c\n",
    );
    p.write("inc/data/secret/1.in", "1\n");
    p.write("inc/data/secret/1.ans", "2\n");
    p.write("inc/data/secret/2.in", "41\n");
    p.write("inc/data/secret/2.ans", "42\n");
    p.write("inc/submissions/accepted/inc.c", ACCEPTED);
    p.path("inc")
}

/// grundy with the cache folder `cache` (not the shared test cache).
fn grundy(p: &Project, cache: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grundy"));
    c.args(args)
        .arg("--problems")
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(cache)
        .env("NO_COLOR", "1");
    c
}

fn run(p: &Project, cache: &Path, args: &[&str]) -> Output {
    grundy(p, cache, args).output().expect("run grundy")
}

/// The derived-limit note of a command's output.
fn note(out: &Output) -> String {
    let text = format!("{}\n{}", stdout(out), stderr(out));
    text.lines()
        .find(|l| l.contains("derived as the format says"))
        .unwrap_or_else(|| panic!("no derived limit noted:\n{text}"))
        .to_string()
}

const CACHED: &str = "kept in the cache";

/// A project holding the package, a cache folder of its own, and the
/// paths `grundy judge` is given.
struct Case {
    p: Project,
    cache: PathBuf,
    pkg_s: String,
    sub_s: String,
}

impl Case {
    fn new() -> Case {
        let p = Project::empty();
        let pkg = package(&p);
        Case {
            cache: p.path("cache"),
            pkg_s: pkg.to_string_lossy().into_owned(),
            sub_s: pkg
                .join("submissions/accepted/inc.c")
                .to_string_lossy()
                .into_owned(),
            p,
        }
    }

    /// `grundy judge` of the accepted submission, with JSON output.
    fn judge(&self) -> [&str; 4] {
        ["judge", &self.pkg_s, &self.sub_s, "--json"]
    }
}

/// The note without what says where it came from: the limit and the run.
fn figures(note: &str) -> &str {
    note.split("; measured before").next().unwrap_or(note)
}

/// Entries of the cache kind holding derived limits.
fn limits_in_cache(p: &Project, cache: &Path) -> u64 {
    let out = run(p, cache, &["cache", "show", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stderr(&out)));
    v["kinds"]["timelimits"]["entries"].as_u64().unwrap_or(0)
}

#[test]
fn a_derived_time_limit_is_measured_once_and_again_when_a_submission_changes() {
    let c = Case::new();
    let (p, cache, judge) = (&c.p, &c.cache, c.judge());

    let first = run(p, cache, &judge);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let measured = note(&first);
    assert!(!measured.contains(CACHED), "{measured}");
    assert!(measured.contains("accepted/inc.c on secret-"), "{measured}");
    assert_eq!(limits_in_cache(p, cache), 1);
    // As text, the kinds are a column apart from their counts, the counts
    // all starting in one column.
    let shown = stdout(&run(p, cache, &["cache", "show"]));
    let kinds: Vec<&str> = shown.lines().filter(|l| l.starts_with("  ")).collect();
    assert!(
        kinds.iter().any(|l| l.starts_with("  timelimits  1 (")),
        "{shown}"
    );
    let column = |l: &str| {
        l[2..]
            .find(' ')
            .map(|k| k + 2 + l[k + 2..].len() - l[k + 2..].trim_start().len())
    };
    let columns: std::collections::BTreeSet<_> = kinds.iter().map(|l| column(l)).collect();
    assert_eq!(columns.len(), 1, "{shown}");

    // The next command (another one, too) takes it from the cache: the
    // same figures to the millisecond, and said to be kept.
    let again = run(p, cache, &judge);
    let kept = note(&again);
    assert!(kept.contains(CACHED), "{kept}");
    assert_eq!(figures(&kept), figures(&measured));
    let verify = run(p, cache, &["verify", &c.pkg_s]);
    assert_eq!(verify.status.code(), Some(0), "{}", stdout(&verify));
    assert!(note(&verify).contains(CACHED), "{}", stdout(&verify));
    assert_eq!(limits_in_cache(p, cache), 1);

    // A changed accepted submission is measured again.
    p.write(
        "inc/submissions/accepted/inc.c",
        &format!("{ACCEPTED}/* a second version */\n"),
    );
    let changed = note(&run(p, cache, &judge));
    assert!(!changed.contains(CACHED), "{changed}");
    assert_eq!(limits_in_cache(p, cache), 2);

    // So is a changed test.
    p.write("inc/data/secret/2.in", "99\n");
    p.write("inc/data/secret/2.ans", "100\n");
    let retested = note(&run(p, cache, &judge));
    assert!(!retested.contains(CACHED), "{retested}");
    assert_eq!(limits_in_cache(p, cache), 3);

    // `cache clear` forgets them with the rest.
    let cleared = run(p, cache, &["cache", "clear"]);
    assert_eq!(cleared.status.code(), Some(0), "{}", stderr(&cleared));
    assert_eq!(limits_in_cache(p, cache), 0);
    assert!(!note(&run(p, cache, &judge)).contains(CACHED));
}

#[test]
fn judges_measuring_at_once_leave_one_whole_entry() {
    let c = Case::new();
    let (p, cache, judge) = (&c.p, &c.cache, c.judge());
    // Both start before either has stored its measurement (or one finds
    // the other's): either way each ends well and one entry is left.
    let start = || {
        grundy(p, cache, &judge)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn grundy")
    };
    let (a, b) = (start(), start());
    for child in [a, b] {
        let out = child.wait_with_output().expect("wait");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    assert_eq!(limits_in_cache(p, cache), 1);
    assert!(note(&run(p, cache, &judge)).contains(CACHED));
}
