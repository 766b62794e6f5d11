//! `grundy verify`: the regression check for problem setters and CI.
//!
//! For each problem: the reference is AC on every test under the real
//! limits; the reference agrees with the game oracle on every small
//! position; every known submission gets the verdict its folder promises;
//! every sample appears in the statement.

pub mod budget;
pub(crate) mod expect;
mod input;
mod known;

pub use known::KnownCheck;
pub mod margins;

use std::path::Path;

use crate::cache::Key;
use crate::catalog;
use crate::judge::trusted::Failed;
use crate::judge::{self, Context, Options, Prepared, execute, run_limits};
use crate::language::Compiled;
use crate::problem::{Problem, ProblemId};
use crate::sandbox::SandboxError;
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
    let (reference, reference_max_ms, reference_warning, accepted) =
        check_reference(&prepared, ctx, jobs);
    // The reference's accepted result, for a known submission that is the
    // same program (see `known::check`).
    let reference_run = prepared.problem.reference.as_deref().zip(accepted.as_ref());
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
            known::check(&prepared, ctx, k, jobs, reference_run)
        })
        .collect();
    let shared: Vec<String> = known
        .iter()
        .filter(|k| k.reference_run)
        .map(|k| shown(problem, &k.path))
        .collect();
    if !shared.is_empty() {
        notes.push(format!(
            "judged once, as the reference and as a known submission (the same program): {}",
            shared.join(", ")
        ));
    }
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

/// What judging the reference found: its status, its slowest test's time,
/// the warning when that is over half the limit, and its result when it is
/// accepted on every test.
type ReferenceCheck = (
    Status,
    Option<f64>,
    Option<String>,
    Option<judge::SubmissionResult>,
);

/// Judges the reference (see [`ReferenceCheck`]).
fn check_reference(prepared: &Prepared, ctx: &Context, jobs: usize) -> ReferenceCheck {
    // A package with no test data (a note of the loader says so): nothing
    // to judge the reference on, said rather than failed.
    if prepared.tests.is_empty() {
        return (Status::Skipped(NOTHING_TO_JUDGE.into()), None, None, None);
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
        return (status, None, None, None);
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
        Ok(r) if r.verdict == Verdict::AC => ctx
            .languages_for(&prepared.problem)
            .by_id(&r.language)
            .ok()
            .and_then(|lang| {
                margins::accepted_warning("the reference", r, margins::limit_for(prepared, lang))
            }),
        _ => None,
    };
    let accepted = result
        .as_ref()
        .ok()
        .filter(|r| {
            r.verdict == Verdict::AC && r.skipped == 0 && r.tests.len() == prepared.tests.len()
        })
        .cloned();
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
    (status, max, warning, accepted)
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
    if problem.package.is_some() {
        return Ok(Status::Skipped(
            "ICPC package: the catalog's oracles are for grundy's own problems".into(),
        ));
    }
    let Some(oracle) = catalog::oracle_for(&problem.id.0, problem.game.as_ref()) else {
        return Ok(Status::Skipped("no oracle for this problem".into()));
    };
    step("reference against the game's oracle");
    let reference = &ctx.compile_trusted(problem, reference, "reference solution")?;
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

/// Every sample's input and output must appear in the statement, so the
/// statement never shows a sample the judge does not use.
fn check_samples(problem: &Problem) -> Status {
    if problem.package.is_some() {
        return Status::Skipped("ICPC package: the samples are data/sample, added to the statement by the format's tools".into());
    }
    let Some(path) = &problem.statement else {
        return Status::Failed(format!(
            "no statement next to {}",
            problem.spec_path.display()
        ));
    };
    let text = match crate::problem::file::read_text(path) {
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
