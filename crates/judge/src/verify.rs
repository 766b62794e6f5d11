//! `grundy verify`: the regression check for problem setters and CI.
//!
//! For each problem: the reference is AC on every test under the real
//! limits; the reference agrees with the game oracle on every small
//! position; every known submission gets the verdict its folder promises;
//! every sample appears in the statement.

pub mod budget;
pub(crate) mod expect;
mod input;
pub mod margins;

use std::path::{Path, PathBuf};

use crate::cache::Key;
use crate::catalog;
use crate::judge::trusted::Failed;
use crate::judge::{self, Context, Options, Prepared, execute, run_limits};
use crate::language::Compiled;
use crate::sandbox::SandboxError;
use crate::spec::{Problem, ProblemId};
use crate::verdict::Verdict;

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Passed(String),
    Failed(String),
    /// Not applicable to this problem (e.g. no oracle for a foreign package).
    Skipped(String),
}

impl Status {
    pub fn failed(&self) -> bool {
        matches!(self, Status::Failed(_))
    }
}

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
}

impl KnownCheck {
    /// Whether the submission got what is expected of it (or was skipped).
    pub fn ok(&self) -> bool {
        self.skipped.is_some()
            || if self.rules.is_empty() {
                use crate::spec::icpc::Code;
                self.got == self.expected
                    || (self.format_codes
                        && Code::of(self.got).is_some()
                        && Code::of(self.got) == Code::of(self.expected))
            } else {
                self.broken.is_none()
            }
    }
}

/// Everything verify found about one problem.
#[derive(Debug, Clone)]
pub struct ProblemReport {
    pub id: ProblemId,
    pub tests: usize,
    pub reference: Status,
    pub oracle: Status,
    pub samples: Status,
    /// Every test input against the problem's input format or the
    /// package's input validators.
    pub input: Status,
    pub known: Vec<KnownCheck>,
    /// What of the problem was read but not honoured (see `Problem::notes`).
    pub notes: Vec<String>,
    /// The reference's most CPU time on one test, in ms (when it ran).
    pub reference_max_ms: Option<f64>,
    /// Time margins missed (see [`margins`]); failures only with `--strict`.
    pub warnings: Vec<String>,
}

impl ProblemReport {
    pub fn passed(&self) -> bool {
        !(self.reference.failed()
            || self.oracle.failed()
            || self.samples.failed()
            || self.input.failed())
            && self.known.iter().all(KnownCheck::ok)
    }
}

/// Why nothing is judged on a problem without tests.
const NOTHING_TO_JUDGE: &str = "no tests to judge it on";

/// Verifies one problem; `Err` only when the problem cannot be prepared.
/// `step` is told what runs next (for progress, and for naming what was
/// stopped when the budget ran out).
pub fn verify(
    problem: &Problem,
    ctx: &Context,
    jobs: usize,
    step: &dyn Fn(&str),
) -> Result<ProblemReport, judge::JudgeError> {
    step("preparing the tests");
    let prepared = judge::prepare_with(problem, ctx, step)?;
    // The prepared problem's notes: a derived time limit adds one.
    let mut notes = prepared.problem.notes.clone();
    let input = input::check(&prepared, ctx, &mut notes, step);
    if let Some(note) = reused_note(&prepared, ctx) {
        notes.push(note);
    }
    let tests = crate::markup::count(prepared.tests.len(), "test", "tests");
    if let Some(r) = &prepared.problem.reference {
        step(&format!("reference {} on {tests}", shown(problem, r)));
    }
    let (reference, reference_max_ms, reference_warning) = check_reference(&prepared, ctx, jobs);
    let oracle = match (&problem.reference, &problem.game) {
        // A described game's own answers and player: checked against the
        // search whether or not there is a reference.
        (_, Some(g)) if problem.interactor.is_some() => check_described_player(g),
        (None, Some(g)) => check_described_answers(g),
        // The interactor plays from the game's rule, which its unit tests
        // check against the search; judging the reference plays it.
        (Some(_), _) if problem.interactor.is_some() => Status::Skipped(
            "interactive: the judge's player is checked against the search in its unit tests"
                .into(),
        ),
        (Some(r), _) => check_oracle(problem, r, ctx, step)?,
        (None, None) => Status::Skipped("no reference".into()),
    };
    let all = expect::known(problem);
    let known: Vec<KnownCheck> = all
        .iter()
        .enumerate()
        .map(|(i, k)| {
            step(&format!(
                "{} (expected {}) on {tests} [{}/{}]",
                shown(problem, &k.path),
                k.expected,
                i + 1,
                all.len()
            ));
            check_known(&prepared, ctx, k, jobs)
        })
        .collect();
    let warnings = reference_warning
        .into_iter()
        .chain(known.iter().filter_map(|k| {
            let name = k.path.strip_prefix(&problem.dir).unwrap_or(&k.path);
            k.warning
                .as_ref()
                .map(|w| format!("{}: {w}", name.display()))
        }))
        .collect();
    Ok(ProblemReport {
        id: problem.id.clone(),
        tests: prepared.tests.len(),
        reference,
        oracle,
        samples: check_samples(problem),
        input,
        known,
        notes,
        reference_max_ms,
        warnings,
    })
}

/// Which submissions are judged from their runs measuring the time limit
/// (see `judge::measured_result`), said once: they are not run again.
fn reused_note(prepared: &Prepared, ctx: &Context) -> Option<String> {
    let reused: Vec<String> = prepared
        .measured
        .iter()
        .filter(|m| judge::measured_result(prepared, ctx, &m.path, m.language.as_deref()).is_some())
        .map(|m| {
            m.path
                .strip_prefix(prepared.problem.dir.join("submissions"))
                .unwrap_or(&m.path)
                .display()
                .to_string()
        })
        .collect();
    (!reused.is_empty()).then(|| {
        format!(
            "judged from their runs measuring the time limit, every run within the derived limit (not run again): {}",
            reused.join(", ")
        )
    })
}

/// `path` as the setter knows it: beneath the problem's folder.
fn shown(problem: &Problem, path: &Path) -> String {
    path.strip_prefix(&problem.dir)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The reference's status, its slowest test's time, and the warning when
/// that is over half the limit.
fn check_reference(
    prepared: &Prepared,
    ctx: &Context,
    jobs: usize,
) -> (Status, Option<f64>, Option<String>) {
    // A package with no test data (see `spec::icpc::NO_TESTS`): nothing
    // to judge the reference on, said rather than failed.
    if prepared.tests.is_empty() {
        return (Status::Skipped(NOTHING_TO_JUDGE.into()), None, None);
    }
    let Some(path) = &prepared.problem.reference else {
        // Named, with why it has no answer: a described game's test
        // beyond what it can decide is the setter's to shrink or answer.
        let unanswered = prepared.tests.iter().find_map(|t| match &t.answer {
            Ok(_) => None,
            Err(why) => Some((t, why)),
        });
        let status = match unanswered {
            None => Status::Skipped("no reference; every test has its answer".into()),
            Some((t, why)) => Status::Failed(format!(
                "no reference solution (expected reference/{}.rs, or `reference:` in the spec): test {}: {why}",
                prepared.problem.id, t.name
            )),
        };
        return (status, None, None);
    };
    let options = Options {
        jobs,
        ..Options::default()
    };
    // Judged already while the time limit was measured: that result,
    // when every run is within the derived limit (not run again).
    let result = match judge::measured_result(prepared, ctx, path, None) {
        Some(r) => Ok(r),
        None => judge::judge(prepared, ctx, path, &options, &mut |_| {}),
    };
    let max = result
        .as_ref()
        .ok()
        .and_then(margins::slowest)
        .map(|(_, ms)| ms);
    let warning = match &result {
        Ok(r) if r.verdict == Verdict::AC => {
            ctx.languages.by_id(&r.language).ok().and_then(|lang| {
                margins::accepted_warning("the reference", r, margins::limit_for(prepared, lang))
            })
        }
        _ => None,
    };
    let status = match result {
        Ok(r) if r.verdict == Verdict::AC => {
            let max = r.tests.iter().map(|t| t.time_ms()).fold(0.0, f64::max);
            Status::Passed(format!("AC, max {max:.0} ms"))
        }
        Ok(r) => {
            let first = r.tests.iter().find(|t| t.verdict != Verdict::AC);
            Status::Failed(match first {
                Some(t) => format!(
                    "reference {} is {} on {}: {}",
                    path.display(),
                    t.verdict,
                    t.name,
                    t.message
                ),
                None => format!(
                    "reference {} is {}: {}",
                    path.display(),
                    r.verdict,
                    r.compile.log.trim()
                ),
            })
        }
        Err(e) => Status::Failed(format!("reference {}: {}", path.display(), e.message())),
    };
    (status, max, warning)
}

/// Runs the reference on every oracle case of the catalog entry.
fn check_oracle(
    problem: &Problem,
    reference: &Path,
    ctx: &Context,
    step: &dyn Fn(&str),
) -> Result<Status, judge::JudgeError> {
    // A package says nothing of being a catalog game: one whose folder is
    // called `nim` is another problem of the same name.
    if crate::spec::is_icpc_package(&problem.dir) {
        return Ok(Status::Skipped(
            "ICPC package: the catalog's oracles are for grundy's own problems".into(),
        ));
    }
    let Some(oracle) = catalog::oracle_for(&problem.id.0, problem.game.as_ref()) else {
        return Ok(Status::Skipped("no oracle for this problem".into()));
    };
    step("reference against the game's oracle");
    let reference = &ctx.compile_trusted(reference, "reference solution")?;
    let cases = &oracle.cases;
    if cases.is_empty() {
        return Ok(Status::Failed(
            "the oracle has no cases for this problem".into(),
        ));
    }
    let limits = crate::run_kind::reference_limits(run_limits(reference, &problem.limits));
    for case in cases {
        match run_case(reference, case.input.as_bytes(), limits, problem, ctx) {
            Ok(out) => {
                if let Err(why) = oracle.accepts(case, &out) {
                    return Ok(Status::Failed(format!(
                        "reference disagrees with the oracle on input {}: {why}",
                        preview(&case.input)
                    )));
                }
            }
            Err(e) => {
                return Ok(Status::Failed(format!(
                    "reference failed on oracle input {}: {e}",
                    preview(&case.input)
                )));
            }
        }
    }
    let how = problem
        .game
        .as_ref()
        .map(|g| format!("; {}", described_reach(g)))
        .unwrap_or_default();
    Ok(Status::Passed(format!(
        "{} agree{how}",
        inputs(cases.len())
    )))
}

/// `1 input`, `2 inputs`: how many oracle inputs a line speaks of.
fn inputs(n: usize) -> String {
    if n == 1 {
        "1 input".into()
    } else {
        format!("{n} inputs")
    }
}

/// How far a described game's own answers reach, for `verify`'s line.
fn described_reach(game: &crate::catalog::described::GameSpec) -> String {
    match game.first_analysis() {
        Some(a) => {
            let bound = a.heap_values().and_then(|h| h.known_below());
            match (a.theory(), bound) {
                (crate::games::described::Theory::Search, _) => format!(
                    "answers only up to the searched bound (small positions): {}",
                    a.explain()
                ),
                (_, Some(b)) => format!(
                    "answers only for heaps below {b} tokens (the values computed; no period proven): {}",
                    a.explain()
                ),
                _ => format!("answers proven for heaps of any size: {}", a.explain()),
            }
        }
        None => "no answers: the moves' parameters have no values".into(),
    }
}

/// A described game without a reference: its own answers (theory)
/// against the exhaustive search on every small position.
fn check_described_answers(game: &crate::catalog::described::GameSpec) -> Status {
    let cases = game.oracle_cases();
    if cases.is_empty() {
        return Status::Failed("no small position within the constraints to check".into());
    }
    for case in &cases {
        let out = match game.answer(&case.input) {
            Ok(out) => out,
            Err(e) => {
                return Status::Failed(format!(
                    "the description gives no answer for {}: {e}",
                    preview(&case.input)
                ));
            }
        };
        if let Err(why) = game.accepts(case, &out) {
            return Status::Failed(format!(
                "the description's answer disagrees with the search on input {}: {why}",
                preview(&case.input)
            ));
        }
    }
    Status::Passed(format!(
        "{}: the description's answers agree with the search; {}",
        inputs(cases.len()),
        described_reach(game)
    ))
}

/// A described game played against the judge: who wins each small start
/// position, as the judge's player decides it, against the search.
fn check_described_player(game: &crate::catalog::described::GameSpec) -> Status {
    let Some(a) = game.first_analysis() else {
        return Status::Failed("the game has no moves to play".into());
    };
    let starts = game.small_starts();
    let mut checked = 0;
    for p in &starts {
        let by_search = a.with_search(|s| s.wins(p));
        if a.mover_wins(p) != Some(by_search) {
            return Status::Failed(format!(
                "the judge's player misjudges the start `{}` (the search says the first player {})",
                p.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
                if by_search { "wins" } else { "loses" }
            ));
        }
        checked += 1;
    }
    Status::Passed(format!(
        "the judge's player agrees with the search on {checked} small starts; {}",
        described_reach(game)
    ))
}

fn run_case(
    program: &Compiled,
    input: &[u8],
    limits: crate::sandbox::RunLimits,
    problem: &Problem,
    ctx: &Context,
) -> Result<String, OracleRunError> {
    let path = ctx
        .cache
        .put_file("tests", &Key::of(&[input]), ".in", input)
        .map_err(OracleRunError::Input)?;
    let exec = execute(program, &path, limits, problem.limits.memory, ctx)?;
    if let Some(failed) = Failed::of(&exec.outcome, &exec.stderr_head) {
        return Err(OracleRunError::Failed(failed));
    }
    std::fs::read_to_string(&exec.stdout).map_err(OracleRunError::Output)
}

/// Why the reference gave no output on an oracle case.
#[derive(Debug, thiserror::Error)]
enum OracleRunError {
    /// The case's input could not be written to the cache.
    #[error("{0}")]
    Input(std::io::Error),
    #[error("{0}")]
    Sandbox(#[from] SandboxError),
    /// It exited with an error or crossed a limit: how, and its stderr.
    #[error("{:?} {:?} {}", .0.exit, .0.limit, .0.stderr)]
    Failed(Failed),
    /// Its output could not be read back (or is not UTF-8).
    #[error("{0}")]
    Output(std::io::Error),
}

fn preview(input: &str) -> String {
    let one_line: String = input.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.len() > 80 {
        format!("`{}…`", &one_line[..80])
    } else {
        format!("`{one_line}`")
    }
}

fn check_known(
    prepared: &Prepared,
    ctx: &Context,
    known: &expect::Known,
    jobs: usize,
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
        format_codes: crate::spec::is_icpc_package(&prepared.problem.dir),
        max_time_ms: None,
        warning: None,
        margin_run: None,
        note: None,
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
    let detected = match &build.language {
        Some(id) => ctx.languages.by_id(id),
        None => ctx.languages.detect(path),
    };
    // A Python folder's entry point named in submissions.yaml: judged as a
    // copy whose `__main__.py` is that file, the module Python runs first.
    let staged;
    let path = match (&build.entrypoint, detected.as_ref().map(|l| l.id.as_str())) {
        (Some(entry), Ok("python")) if path.is_dir() => match stage_entrypoint_of(path, entry, ctx)
        {
            Ok(dir) => {
                staged = dir;
                staged.path().join(path.file_name().unwrap_or_default())
            }
            Err(e) => {
                check.message = format!("entrypoint `{entry}`: {e}");
                return check;
            }
        },
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
    let mut judged = match judge::measured_result(prepared, ctx, path, options.language.as_deref())
    {
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
        let python2 = ctx.languages.by_id("python2").ok();
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
            let paths = if package {
                expect::test_paths(&prepared.problem)
            } else {
                Default::default()
            };
            let time_rules = if package {
                expect::time_rules(&prepared.problem, known)
            } else {
                Vec::new()
            };
            let bounds_above = |t: &judge::TestResult| {
                if package {
                    let at = expect::test_path(&paths, &t.group, &t.name);
                    crate::spec::icpc::bounds_time_limit(&time_rules, &at, true)
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
    problem: &crate::spec::Problem,
    rules: &[crate::spec::icpc::Rule],
    r: &judge::SubmissionResult,
) -> Option<String> {
    if !r.compile.ok {
        return Some(format!("{}: does not compile", r.verdict));
    }
    let paths = expect::test_paths(problem);
    let tests: Vec<(String, Verdict, String)> = r
        .tests
        .iter()
        .map(|t| {
            (
                expect::test_path(&paths, &t.group, &t.name),
                t.verdict,
                t.message.clone(),
            )
        })
        .collect();
    // A scoring package's score is checked as the package counts it: the
    // submission's, or a test data group's (the grundy groups made from
    // its tests; see `spec::icpc::scoring`).
    let scored = problem.scoring;
    let score = |glob: Option<&str>| -> Option<(f64, f64)> {
        if !scored {
            return None;
        }
        let Some(glob) = glob else {
            let max = crate::spec::icpc::package_score(&problem.groups, 100.0);
            return Some((
                crate::spec::icpc::package_score(&problem.groups, r.score),
                max,
            ));
        };
        group_score(problem, &paths, glob, r)
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
    problem: &crate::spec::Problem,
    paths: &std::collections::HashMap<(String, u32), String>,
    glob: &str,
    r: &judge::SubmissionResult,
) -> Option<(f64, f64)> {
    let under = crate::spec::icpc::Rule {
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
    ctx: &Context,
) -> std::io::Result<tempfile::TempDir> {
    let substituted = crate::spec::icpc::stage(dir, &ctx.cache)?;
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

/// Every sample's input and output must appear in the statement, so the
/// statement never shows a sample the judge does not use.
fn check_samples(problem: &Problem) -> Status {
    if crate::spec::is_icpc_package(&problem.dir) {
        return Status::Skipped("ICPC package: the samples are data/sample, added to the statement by the format's tools".into());
    }
    let Some(path) = &problem.statement else {
        return Status::Failed(format!(
            "no statement next to {}",
            problem.spec_path.display()
        ));
    };
    let text = match crate::spec::file::read_text(path) {
        Ok(t) => normalize(&t),
        Err(e) => return Status::Failed(format!("{}: {e}", path.display())),
    };
    if problem.samples.is_empty() && problem.interactor.is_some() {
        // A played game has no fixed output to quote: the statement shows
        // an example dialogue, and its positions are a group of the spec.
        return Status::Skipped("interactive: the statement shows an example dialogue".into());
    }
    if problem.samples.is_empty() {
        return Status::Failed("the spec has no samples".into());
    }
    for (i, s) in problem.samples.iter().enumerate() {
        for (what, body) in [("input", &s.input), ("output", &s.output)] {
            if !text.contains(&normalize(body)) {
                return Status::Failed(format!(
                    "sample {} {what} does not appear in {}",
                    i + 1,
                    path.display()
                ));
            }
        }
    }
    Status::Passed(format!(
        "{} samples in the statement",
        problem.samples.len()
    ))
}

fn normalize(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}
