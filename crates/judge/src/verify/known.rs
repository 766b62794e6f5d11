//! The known submissions in `verify`: each judged as the problem's
//! tests judge any submission, and held to what its folder promises or,
//! in a package, to the rules of `submissions.yaml` (verdicts per test,
//! judge messages, scores, and which runs bound the time limit).

use std::path::{Path, PathBuf};

use super::{NOTHING_TO_JUDGE, expect, margins};
use crate::judge::{self, Context, Options, Prepared};
use crate::verdict::Verdict;

/// A known submission and what it got.
#[derive(Debug, Clone)]
pub struct KnownCheck {
    pub path: PathBuf,
    pub expected: Verdict,
    pub got: Verdict,
    /// The first test that was not AC (the test that rejects it).
    pub first_failing: Option<String>,
    pub message: String,
    /// Why it was not judged (a language without a toolchain here): not a
    /// failure of the problem.
    pub skipped: Option<String>,
    /// The package's `submissions.yaml` rules, described: when present they
    /// decide, not `expected`.
    pub rules: Vec<String>,
    /// The first rule the submission broke, and how.
    pub broken: Option<String>,
    /// An ICPC package's folder: its verdict is met as the format counts
    /// verdicts (a submission stopped for its memory in `run_time_error/`
    /// is a run-time error there, as on Kattis).
    pub format_codes: bool,
    /// The most CPU time it used on one test, in ms (when it ran).
    pub max_time_ms: Option<f64>,
    /// A time margin it misses (see [`margins`]): not a failure.
    pub warning: Option<String>,
    /// A known-TLE submission's run with 1.5 times the limit.
    pub margin_run: Option<margins::MarginRun>,
    /// How it was judged when not as its file name says (Python 2 code
    /// in a `.py`).
    pub note: Option<String>,
    /// Its result is the reference's: the same program, accepted when
    /// judged as the reference, is not run again.
    pub reference_run: bool,
}

impl KnownCheck {
    /// Whether the submission got what is expected of it (or was skipped).
    pub fn ok(&self) -> bool {
        self.skipped.is_some()
            || if self.rules.is_empty() {
                use crate::problem::expected::Code;
                self.got == self.expected
                    || (self.format_codes
                        && Code::of(self.got).is_some()
                        && Code::of(self.got) == Code::of(self.expected))
            } else {
                self.broken.is_none()
            }
    }
}

/// Judges the known submission `known` and holds it to its rules.
pub(super) fn check(
    prepared: &Prepared,
    ctx: &Context,
    known: &expect::Known,
    jobs: usize,
    reference: Option<(&Path, &judge::SubmissionResult)>,
) -> KnownCheck {
    let (path, expected) = (known.path.as_path(), known.expected);
    let options = Options {
        jobs,
        // Per-test rules need every test's verdict.
        fail_fast: expected != Verdict::AC && known.rules.is_empty(),
        // A rule on some tests only, or on judge messages, needs every
        // test judged, past a group's first failure.
        all: known
            .rules
            .iter()
            .any(|r| r.tests.is_some() || r.message.is_some()),
        ..Options::default()
    };
    let mut check = KnownCheck {
        path: path.to_path_buf(),
        expected,
        got: Verdict::IE,
        first_failing: None,
        message: String::new(),
        skipped: None,
        rules: known
            .rules
            .iter()
            .map(|r| r.describe_with_origin())
            .collect(),
        broken: None,
        format_codes: prepared.problem.package.is_some(),
        max_time_ms: None,
        warning: None,
        margin_run: None,
        note: None,
        reference_run: false,
    };
    if prepared.tests.is_empty() {
        check.skipped = Some(format!("skipped: {NOTHING_TO_JUDGE}"));
        return check;
    }
    let build = known.build.clone().unwrap_or_default();
    if let Some(foreign) = &build.foreign {
        check.skipped = Some(format!(
            "skipped: no toolchain for `{foreign}` (its language in submissions.yaml)"
        ));
        return check;
    }
    let options = Options {
        language: build.language.clone(),
        ..options
    };
    let languages = ctx.languages_for(&prepared.problem);
    let detected = match &build.language {
        Some(id) => languages.by_id(id),
        None => languages.detect(path),
    };
    // A Python folder's entry point named in submissions.yaml: judged as a
    // copy whose `__main__.py` is that file, the module Python runs first.
    let staged;
    let path = match (&build.entrypoint, detected.as_ref().map(|l| l.id.as_str())) {
        (Some(entry), Ok("python")) if path.is_dir() => {
            match stage_entrypoint_of(path, entry, prepared, ctx) {
                Ok(dir) => {
                    staged = dir;
                    staged.path().join(path.file_name().unwrap_or_default())
                }
                Err(e) => {
                    check.message = format!("entrypoint `{entry}`: {e}");
                    return check;
                }
            }
        }
        _ => path.to_path_buf(),
    };
    let path = path.as_path();
    let language = match detected {
        Ok(lang) => {
            if let Some(program) = crate::language::missing_toolchain(lang) {
                if lang.id == "python2" {
                    check.skipped = Some(format!(
                        "skipped: Python 2 code (`.py2`, or its first line names python2); no Python 2 interpreter here (`{program}` is not installed)"
                    ));
                    return check;
                }
                check.skipped = Some(format!(
                    "skipped: no toolchain for {} (`{program}` is not installed)",
                    lang.name
                ));
                return check;
            }
            lang
        }
        Err(_) => {
            check.skipped = Some(format!(
                "skipped: no toolchain for {}",
                foreign_language(path)
            ));
            return check;
        }
    };
    let measured = judge::measured_result(prepared, ctx, path, options.language.as_deref());
    let of_reference = reference
        .filter(|(reference, r)| {
            measured.is_none() && r.language == language.id && same_program(reference, path)
        })
        .map(|(_, r)| r.clone());
    check.reference_run = of_reference.is_some();
    let mut judged = match measured.or(of_reference) {
        Some(r) => Ok(r),
        None => judge::judge(prepared, ctx, path, &options, &mut |_| {}),
    };
    // Python 2 code in a `.py` with no `#!` line naming it (packages older
    // than Python 3): judged as Python 2 where an interpreter is, else
    // said plainly instead of a compile error.
    if let Ok(r) = &judged
        && language.id == "python"
        && !r.compile.ok
        && expected != Verdict::CE
        && let Some(what) = crate::language::python2_only(&r.compile.log)
    {
        let python2 = languages.by_id("python2").ok();
        match python2.and_then(crate::language::missing_toolchain) {
            None if python2.is_some() => {
                let options = Options {
                    language: Some("python2".into()),
                    ..options.clone()
                };
                judged = judge::judge(prepared, ctx, path, &options, &mut |_| {});
                check.note = Some(format!(
                    "judged as Python 2: it is not Python 3 ({what}), and packages older than Python 3 hold Python 2 in `.py` files"
                ));
            }
            _ => {
                check.skipped = Some(format!(
                    "skipped: Python 2 code ({what}); no Python 2 interpreter here"
                ));
                return check;
            }
        }
    }
    match judged {
        Ok(r)
            if check.format_codes
                && expected != Verdict::CE
                && !r.compile.ok
                && crate::language::compile_stopped_at_limit(&r.compile.log) =>
        {
            // The format leaves compile limits to the judge (DOMjudge allows
            // 2.5 GiB of files, grundy 512 MiB): not the package's mistake.
            check.skipped = Some(format!(
                "skipped: {}",
                r.compile.log.lines().next().unwrap_or_default()
            ));
        }
        Ok(r) => {
            check.got = r.verdict;
            check.max_time_ms = margins::slowest(&r).map(|(_, ms)| ms);
            // Which runs must time out with the margin to spare: a known
            // TLE, or in a package those the format's rules make an upper
            // bound of the time limit (`required: [TLE]`, `use_for_time_limit`).
            let package = check.format_codes;
            let facts = prepared.problem.package.as_ref();
            let time_rules = if package {
                expect::time_rules(&prepared.problem, known)
            } else {
                Vec::new()
            };
            let bounds_above = |t: &judge::TestResult| {
                if let Some(facts) = facts {
                    let at = facts.test_path(&t.group, &t.name);
                    crate::problem::expected::bounds_time_limit(&time_rules, &at, true)
                } else {
                    expected == Verdict::TLE
                }
            };
            check.warning = match (expected, r.verdict) {
                (Verdict::AC, Verdict::AC) => margins::accepted_warning(
                    "accepted, but",
                    &r,
                    margins::limit_for(prepared, language),
                ),
                (Verdict::TLE, Verdict::AC) => margins::near_limit_warning(
                    margins::slowest(&r),
                    margins::limit_for(prepared, language),
                ),
                (_, Verdict::TLE) if r.tests.iter().any(bounds_above) => {
                    let checked = r
                        .tests
                        .iter()
                        .find(|t| t.verdict == Verdict::TLE && bounds_above(t))
                        .and_then(|t| margins::tle_check(prepared, ctx, path, language, &t.name));
                    check.margin_run = checked.as_ref().map(|(run, _)| *run);
                    checked.and_then(|(_, w)| w)
                }
                _ => None,
            };
            if let Some(t) = r.tests.iter().find(|t| t.verdict != Verdict::AC) {
                check.first_failing = Some(t.name.clone());
                check.message = t.message.clone();
            } else if !r.compile.ok {
                check.message = crate::language::compile_summary(&r.compile.log).to_string();
            }
            if !known.rules.is_empty() {
                check.broken = broken_rule(&prepared.problem, &known.rules, &r);
            }
        }
        Err(e) => {
            check.message = e.message();
            if !known.rules.is_empty() {
                check.broken = Some(format!("not judged: {}", check.message));
            }
        }
    }
    check
}

/// The first `submissions.yaml` rule the result breaks, said plainly.
fn broken_rule(
    problem: &crate::problem::Problem,
    rules: &[crate::problem::expected::Rule],
    r: &judge::SubmissionResult,
) -> Option<String> {
    if !r.compile.ok {
        return Some(format!("{}: does not compile", r.verdict));
    }
    let no_facts = crate::problem::PackageFacts::default();
    let facts = problem.package.as_ref().unwrap_or(&no_facts);
    let tests: Vec<(String, Verdict, String)> = r
        .tests
        .iter()
        .map(|t| {
            (
                facts.test_path(&t.group, &t.name),
                t.verdict,
                t.message.clone(),
            )
        })
        .collect();
    // A scoring package's score is checked as the package counts it: the
    // submission's, or a test data group's (the grundy groups made from
    // its tests, as the loader made them).
    let scored = problem.scoring;
    let score = |glob: Option<&str>| -> Option<(f64, f64)> {
        if !scored {
            return None;
        }
        let Some(glob) = glob else {
            let max = crate::problem::package_score(&problem.groups, 100.0);
            return Some((crate::problem::package_score(&problem.groups, r.score), max));
        };
        group_score(problem, &facts.test_paths, glob, r)
    };
    rules.iter().find_map(|rule| {
        rule.check(&tests, Some(&score))
            .err()
            .map(|why| format!("{}: {why}", rule.describe_with_origin()))
    })
}

/// The score of the test data group(s) `glob` names (a glob under
/// `data/`), in the package's units, and their maximum: the points of the
/// grundy groups whose every test lies under it, earned when every test
/// of the group is AC (times the lowest share an output validator gave
/// one of them). `None` when no scored group lies under it.
fn group_score(
    problem: &crate::problem::Problem,
    paths: &std::collections::HashMap<(String, u32), String>,
    glob: &str,
    r: &judge::SubmissionResult,
) -> Option<(f64, f64)> {
    let under = crate::problem::expected::Rule {
        tests: Some(glob.to_string()),
        ..Default::default()
    };
    let mut found = false;
    let (mut earned, mut max) = (0.0, 0.0);
    for g in &problem.groups {
        if g.name == crate::generate::SAMPLE_GROUP || g.tests.is_empty() {
            continue;
        }
        let inside = (1..=g.tests.len() as u32).all(|k| {
            paths
                .get(&(g.name.clone(), k))
                .is_some_and(|p| under.covers(p))
        });
        if !inside {
            continue;
        }
        found = true;
        max += g.points;
        // As the submission's score counts it: all of the group's tests
        // accepted, times the lowest share a validator gave one of them.
        let mine: Vec<_> = r.tests.iter().filter(|t| t.group == g.name).collect();
        if !mine.is_empty() && mine.iter().all(|t| t.verdict == Verdict::AC) {
            let least = mine
                .iter()
                .map(|t| t.share.unwrap_or(1.0).clamp(0.0, 1.0))
                .fold(1.0, f64::min);
            earned += g.points * least;
        }
    }
    found.then_some((earned, max))
}

/// The name of a language grundy has no entry for, from the extension,
/// so the skip says what would be needed.
/// [`stage_entrypoint`] of the package's submission folder `dir` with its
/// `{{constants}}` replaced first (the copy is no longer in the package,
/// where the judge would replace them).
fn stage_entrypoint_of(
    dir: &Path,
    entry: &str,
    prepared: &Prepared,
    ctx: &Context,
) -> std::io::Result<tempfile::TempDir> {
    let substituted = crate::problem::stage(dir, &prepared.problem, &ctx.cache)?;
    stage_entrypoint(substituted.as_deref().unwrap_or(dir), entry, ctx)
}

/// A copy of the Python submission folder `dir` in the working root, its
/// `__main__.py` the entry point `entry` names.
fn stage_entrypoint(dir: &Path, entry: &str, ctx: &Context) -> std::io::Result<tempfile::TempDir> {
    let root = tempfile::Builder::new()
        .prefix("entry-")
        .tempdir_in(ctx.workroot.path())?;
    let copy = root.path().join(dir.file_name().unwrap_or_default());
    for e in walkdir::WalkDir::new(dir).follow_links(false) {
        let e = e.map_err(std::io::Error::other)?;
        let rel = e.path().strip_prefix(dir).map_err(std::io::Error::other)?;
        let to = copy.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&to)?;
        } else if e.file_type().is_file() {
            crate::beneath::copy_file(e.path(), &to, crate::beneath::SOURCE_CAP)?;
        }
    }
    let main = dir.join(entry);
    if !main.is_file() || entry.contains("..") {
        return Err(std::io::Error::other("no such file in the submission"));
    }
    crate::beneath::copy_file(&main, &copy.join("__main__.py"), crate::beneath::SOURCE_CAP)?;
    Ok(root)
}

fn foreign_language(path: &Path) -> String {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let name = match ext.as_str() {
        "kt" => "Kotlin",
        "cs" => "C#",
        "go" => "Go",
        "js" => "JavaScript",
        "ts" => "TypeScript",
        "rb" => "Ruby",
        "scala" => "Scala",
        "hs" => "Haskell",
        "pas" => "Pascal",
        "php" => "PHP",
        "swift" => "Swift",
        "ml" => "OCaml",
        "lua" => "Lua",
        "pl" => "Perl",
        "f90" | "f95" => "Fortran",
        "" => return format!("{} (no extension)", path.display()),
        other => return format!("`.{other}` files"),
    };
    name.to_string()
}

/// Whether `a` and `b` are the same program: the same file (a package's
/// reference is one of its accepted submissions), or files of the same
/// name and bytes. A folder is the same program only as the same folder.
fn same_program(a: &Path, b: &Path) -> bool {
    if let (Ok(x), Ok(y)) = (std::fs::canonicalize(a), std::fs::canonicalize(b))
        && x == y
    {
        return true;
    }
    if a.file_name() != b.file_name() || !a.is_file() || !b.is_file() {
        return false;
    }
    let read = |p: &Path| crate::beneath::read_file(p, crate::beneath::SOURCE_CAP).ok();
    matches!((read(a), read(b)), (Some(x), Some(y)) if x == y)
}
