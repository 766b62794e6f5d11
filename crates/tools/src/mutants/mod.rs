//! `grundy mutants`: measure a problem's tests by the mutants of its
//! reference they reject, and close the gaps (`--harden`).
//!
//! The known-wrong submissions of a problem show that the tests catch the
//! mistakes someone thought of. A mutant is a mistake nobody had to think
//! of: the reference with one operator swapped, one constant moved, one
//! condition negated ([`operators`]). Each mutant is built and judged on the
//! problem's tests like any submission. One that passes them all is then
//! compared with the reference on the catalog oracle's exhaustive small
//! positions and on seeded random inputs of growing size (the same inputs
//! `stress` draws): if they never differ the mutant is *equivalent* (the
//! change does not matter, the evidence is the number of inputs compared),
//! otherwise it *survived* and the input is shrunk with `stress`'s shrinker.
//! [`harden`] writes each survivor's input into the spec as a new group.
//!
//! A played problem's reference is a player, with no answers to compare:
//! [`play`] plays each mutant that passed the tests against the built-in
//! interactor instead, and a game it loses is its counterexample.

pub mod harden;
pub mod operators;
pub mod play;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::generate::SAMPLE_GROUP;
use crate::judge::{self, Context, JudgeError, Prepared};
use crate::spec::{Problem, ProblemId};
use crate::stress::{self, Counterexample, Runner};
use crate::verdict::Verdict;

pub use operators::{Mutant, mutants};

/// Why a problem's mutants cannot be measured.
#[derive(Debug, Error)]
pub enum MutantsError {
    #[error(
        "{problem}: no Rust reference to mutate (mutants covers Rust only: reference/<id>.rs, `reference:` in the spec, or an accepted .rs submission)"
    )]
    NoRustReference { problem: ProblemId },
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Parse {
        path: PathBuf,
        source: operators::ParseError,
    },
    #[error("{}: the reference is not accepted by its own tests ({verdict}); mutants needs a correct reference", path.display())]
    BadReference { path: PathBuf, verdict: Verdict },
    #[error("{}: cannot harden: {why}", path.display())]
    Harden { path: PathBuf, why: String },
    #[error(transparent)]
    Judge(#[from] JudgeError),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// How to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// Mutants judged at once.
    pub jobs: usize,
    /// No mutant is started after this much time (from the start of the
    /// call); those left are reported as not run.
    pub time_budget: Option<Duration>,
    /// Fresh random rounds (tiny, small, full size in turn) compared after
    /// the oracle's small positions.
    pub random_rounds: u64,
    /// Seed of the random rounds.
    pub seed: u64,
    /// Time for shrinking one survivor's input.
    pub shrink_time: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: 1,
            time_budget: None,
            random_rounds: 6,
            seed: 1,
            shrink_time: Duration::from_secs(20),
        }
    }
}

/// What became of one mutant.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// A test rejected it.
    Killed {
        test: String,
        group: String,
        verdict: Verdict,
    },
    /// It does not compile.
    Unviable,
    /// It runs out of time on a sample: counted apart, like cargo-mutants.
    Timeout { test: String },
    /// It passed every test and answered like the reference on every input
    /// compared.
    ///
    /// For a player (an interactive problem) the inputs are start positions
    /// and `played` is set: it won every game played from them.
    Equivalent {
        small_inputs: usize,
        random_inputs: usize,
        played: bool,
    },
    /// It passed every test but is wrong on this (shrunk) input.
    Survived { counterexample: Box<Counterexample> },
    /// The judge itself failed on it.
    Error { message: String },
    /// The time budget ran out before it was judged.
    NotRun,
}

impl Outcome {
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Killed { .. } => "killed",
            Outcome::Unviable => "unviable",
            Outcome::Timeout { .. } => "timeout",
            Outcome::Equivalent { .. } => "equivalent",
            Outcome::Survived { .. } => "survived",
            Outcome::Error { .. } => "error",
            Outcome::NotRun => "not-run",
        }
    }
}

/// One mutant and its outcome.
#[derive(Debug, Clone)]
pub struct MutantResult {
    pub mutant: Mutant,
    pub outcome: Outcome,
}

/// Every mutant of one problem's reference.
#[derive(Debug, Clone)]
pub struct ProblemMutants {
    pub id: ProblemId,
    pub reference: PathBuf,
    pub results: Vec<MutantResult>,
    pub elapsed: Duration,
    /// Whether the program is a player (an interactive problem): its
    /// survivors lost a game rather than answered wrongly.
    pub played: bool,
}

/// Counts by outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub mutants: usize,
    pub killed: usize,
    pub survived: usize,
    pub equivalent: usize,
    pub unviable: usize,
    pub timeout: usize,
    pub error: usize,
    pub not_run: usize,
}

impl ProblemMutants {
    pub fn counts(&self) -> Counts {
        let mut c = Counts {
            mutants: self.results.len(),
            ..Counts::default()
        };
        for r in &self.results {
            match r.outcome {
                Outcome::Killed { .. } => c.killed += 1,
                Outcome::Survived { .. } => c.survived += 1,
                Outcome::Equivalent { .. } => c.equivalent += 1,
                Outcome::Unviable => c.unviable += 1,
                Outcome::Timeout { .. } => c.timeout += 1,
                Outcome::Error { .. } => c.error += 1,
                Outcome::NotRun => c.not_run += 1,
            }
        }
        c
    }

    /// killed / (killed + survived), in percent; `None` when no mutant
    /// told anything (all unviable, equivalent or not run).
    pub fn score(&self) -> Option<f64> {
        let c = self.counts();
        let judged = c.killed + c.survived;
        (judged > 0).then(|| 100.0 * c.killed as f64 / judged as f64)
    }

    pub fn survivors(&self) -> impl Iterator<Item = (&Mutant, &Counterexample)> {
        self.results.iter().filter_map(|r| match &r.outcome {
            Outcome::Survived { counterexample } => Some((&r.mutant, &**counterexample)),
            _ => None,
        })
    }

    pub fn json(&self) -> serde_json::Value {
        let results: Vec<_> = self
            .results
            .iter()
            .map(|r| {
                let mut o = serde_json::json!({
                    "index": r.mutant.index,
                    "line": r.mutant.line,
                    "kind": r.mutant.kind,
                    "description": r.mutant.description,
                    "outcome": r.outcome.word(),
                });
                match &r.outcome {
                    Outcome::Killed {
                        test,
                        group,
                        verdict,
                    } => {
                        o["test"] = test.clone().into();
                        o["group"] = group.clone().into();
                        o["verdict"] = verdict.code().into();
                    }
                    Outcome::Timeout { test } => o["test"] = test.clone().into(),
                    Outcome::Equivalent {
                        small_inputs,
                        random_inputs,
                        played: false,
                    } => {
                        o["small_inputs"] = (*small_inputs).into();
                        o["random_inputs"] = (*random_inputs).into();
                    }
                    Outcome::Equivalent {
                        small_inputs,
                        random_inputs,
                        played: true,
                    } => {
                        o["small_games"] = (*small_inputs).into();
                        o["random_games"] = (*random_inputs).into();
                    }
                    Outcome::Survived { counterexample } => {
                        o["input"] = counterexample.input.clone().into();
                        o["expected"] = counterexample.expected.clone().into();
                        o["actual"] = counterexample.actual.clone().into();
                        o["verdict"] = counterexample.verdict.code().into();
                        o["message"] = counterexample.message.clone().into();
                    }
                    Outcome::Error { message } => o["message"] = message.clone().into(),
                    _ => {}
                }
                o
            })
            .collect();
        serde_json::json!({
            "problem": self.id,
            "reference": self.reference.display().to_string(),
            "counts": self.counts(),
            "score": self.score(),
            "played": self.played,
            "elapsed_s": self.elapsed.as_secs_f64(),
            "mutants": results,
        })
    }
}

/// The Rust program whose mutants measure a problem's tests: the problem's
/// reference when it is Rust, else its first accepted Rust submission (a
/// user's package often has its reference only there).
pub fn reference_of(problem: &Problem) -> Option<PathBuf> {
    let is_rust = |p: &Path| p.extension().is_some_and(|x| x == "rs");
    if let Some(r) = &problem.reference
        && is_rust(r)
    {
        return Some(r.clone());
    }
    judge::known_submissions(&problem.dir)
        .into_iter()
        .find(|(v, p)| *v == Verdict::AC && is_rust(p))
        .map(|(_, p)| p)
}

/// Generates, builds and judges every mutant of the problem's reference.
/// `progress` hears of each mutant as it is decided (in any order).
pub fn run(
    problem: &Problem,
    ctx: &Context,
    options: &Options,
    progress: &(dyn Fn(&MutantResult) + Sync),
) -> Result<ProblemMutants, MutantsError> {
    let started = Instant::now();
    let reference = reference_of(problem).ok_or_else(|| MutantsError::NoRustReference {
        problem: problem.id.clone(),
    })?;
    let source = crate::spec::file::read_capped(&reference, crate::beneath::SOURCE_CAP)
        .and_then(crate::beneath::utf8)
        .map_err(|source| MutantsError::Read {
            path: reference.clone(),
            source,
        })?;
    let all = operators::mutants(&source).map_err(|source| MutantsError::Parse {
        path: reference.clone(),
        source,
    })?;
    // The problem as judged: its answers come from its own reference when
    // it has one, else from the program being mutated.
    let mut problem = problem.clone();
    if problem.reference.is_none() {
        problem.reference = Some(reference.clone());
    }
    let prepared = judge::prepare(&problem, ctx)?;
    let check = judge::judge(
        &prepared,
        ctx,
        &reference,
        &judge::Options {
            jobs: options.jobs.max(1),
            fail_fast: true,
            ..judge::Options::default()
        },
        &mut |_| {},
    )?;
    if check.verdict != Verdict::AC {
        return Err(MutantsError::BadReference {
            path: reference,
            verdict: check.verdict,
        });
    }
    let dir = ctx.workroot.path().join("mutants").join(&problem.id.0);
    std::fs::create_dir_all(&dir).map_err(|source| MutantsError::Write {
        path: dir.clone(),
        source,
    })?;
    let deadline = options.time_budget.map(|b| started + b);
    let order = spread_order(all.len());
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<MutantResult>>> = Mutex::new(vec![None; all.len()]);
    let work = || {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&i) = order.get(k) else { break };
            let Some(mutant) = all.get(i) else { break };
            let outcome = if deadline.is_some_and(|d| Instant::now() >= d) {
                Outcome::NotRun
            } else {
                evaluate(&prepared, ctx, mutant, &dir, options)
            };
            let result = MutantResult {
                mutant: mutant.clone(),
                outcome,
            };
            progress(&result);
            if let Ok(mut s) = slots.lock() {
                s[i] = Some(result);
            }
        }
    };
    std::thread::scope(|s| {
        for _ in 0..options.jobs.clamp(1, all.len().max(1)) {
            s.spawn(work);
        }
    });
    let results = slots
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .zip(&all)
        .map(|(r, m)| {
            r.unwrap_or_else(|| MutantResult {
                mutant: m.clone(),
                outcome: Outcome::Error {
                    message: "a worker stopped before judging it".into(),
                },
            })
        })
        .collect();
    Ok(ProblemMutants {
        id: problem.id.clone(),
        reference,
        results,
        elapsed: started.elapsed(),
        played: play::game_of(&problem).is_some(),
    })
}

/// Why a failed compile is the compiler's failure rather than the
/// mutant's, if it is: `rustc` panicking (an internal error), or the system
/// refusing it a thread or process (`EAGAIN`, seen when another judge on
/// the machine holds every process slot). Such a mutant is not *unviable*:
/// counting it so would drop it from the score unjudged, and it may be a
/// survivor.
fn compiler_crash(log: &str) -> Option<&'static str> {
    const SIGNS: [(&str, &str); 2] = [
        ("the compiler unexpectedly panicked", "rustc panicked"),
        ("Resource temporarily unavailable", "EAGAIN"),
    ];
    SIGNS
        .iter()
        .find(|(sign, _)| log.contains(sign))
        .map(|&(_, why)| why)
}

/// The order in which `n` mutants are started: the bit-reversed indices
/// (0, n/2, n/4, 3n/4, …), a permutation of `0..n`. Mutants are numbered
/// in source order, so when a time budget stops the run (CI bounds it) the
/// ones judged are spread over the whole reference instead of being its
/// first lines only; the report still lists them in source order.
fn spread_order(n: usize) -> Vec<usize> {
    if n < 2 {
        return (0..n).collect();
    }
    let bits = n.next_power_of_two().trailing_zeros();
    (0..n.next_power_of_two())
        .map(|i| i.reverse_bits() >> (usize::BITS - bits))
        .filter(|&i| i < n)
        .collect()
}

/// Judges the given mutants again on the problem as it is now (after
/// hardening): survivors that a new test rejects become killed.
pub fn rejudge(
    before: &ProblemMutants,
    problem: &Problem,
    ctx: &Context,
    options: &Options,
) -> Result<ProblemMutants, MutantsError> {
    let started = Instant::now();
    let mut problem = problem.clone();
    if problem.reference.is_none() {
        problem.reference = Some(before.reference.clone());
    }
    let prepared = judge::prepare(&problem, ctx)?;
    let dir = ctx.workroot.path().join("mutants").join(&problem.id.0);
    std::fs::create_dir_all(&dir).map_err(|source| MutantsError::Write {
        path: dir.clone(),
        source,
    })?;
    let mut after = before.clone();
    for r in &mut after.results {
        if let Outcome::Survived { .. } = r.outcome {
            r.outcome = evaluate(&prepared, ctx, &r.mutant, &dir, options);
        }
    }
    after.elapsed = started.elapsed();
    Ok(after)
}

/// Builds and judges one mutant, then looks for an input it gets wrong.
fn evaluate(
    prepared: &Prepared,
    ctx: &Context,
    mutant: &Mutant,
    dir: &Path,
    options: &Options,
) -> Outcome {
    let path = dir.join(format!("mutant-{}.rs", mutant.index));
    if let Err(e) = std::fs::write(&path, &mutant.source) {
        return Outcome::Error {
            message: format!("cannot write {}: {e}", path.display()),
        };
    }
    let judged = judge::judge(
        prepared,
        ctx,
        &path,
        &judge::Options {
            jobs: 1,
            fail_fast: true,
            ..judge::Options::default()
        },
        &mut |_| {},
    );
    let result = match judged {
        Ok(r) => r,
        Err(e) => {
            return Outcome::Error {
                message: e.message(),
            };
        }
    };
    // The judge failed before any test ran (its compiler missing, say): the
    // mutant was not judged, so it is neither killed nor searched.
    if let (Some(why), true) = (&result.internal_error, result.tests.is_empty()) {
        return Outcome::Error {
            message: why.clone(),
        };
    }
    if result.verdict == Verdict::CE {
        if let Some(why) = compiler_crash(&result.compile.log) {
            return Outcome::Error {
                message: format!(
                    "the compiler itself failed ({why}), so whether the mutant compiles is unknown; \
                     the failure may be cached: `grundy cache clear`, then run again"
                ),
            };
        }
        return Outcome::Unviable;
    }
    if let Some(t) = result.tests.iter().find(|t| t.verdict != Verdict::AC) {
        return match t.verdict {
            Verdict::IE => Outcome::Error {
                message: format!("{}: {}", t.name, t.message),
            },
            Verdict::TLE if t.group == SAMPLE_GROUP => Outcome::Timeout {
                test: t.name.clone(),
            },
            v => Outcome::Killed {
                test: t.name.clone(),
                group: t.group.clone(),
                verdict: v,
            },
        };
    }
    let found = match play::game_of(&prepared.problem) {
        Some(game) => play::search(prepared, ctx, game, &path, mutant, options),
        None => search(&prepared.problem, ctx, &path, options),
    };
    match found {
        Ok(o) => o,
        Err(e) => Outcome::Error {
            message: e.message(),
        },
    }
}

/// Compares a mutant that passed every test with the reference: the
/// oracle's small positions (every one), then seeded random rounds.
fn search(
    problem: &Problem,
    ctx: &Context,
    path: &Path,
    options: &Options,
) -> Result<Outcome, JudgeError> {
    let runner = Runner::new(problem, ctx, path, 1, None);
    let small: Vec<String> = crate::catalog::oracle_for(&problem.id.0, problem.game.as_ref())
        .map(|o| o.cases.into_iter().map(|c| c.input).collect())
        .unwrap_or_default();
    if let Some(f) = runner.first_failure(&small)? {
        return survived(&runner, &small[f.index], f.result, options);
    }
    let mut seen = std::collections::HashSet::new();
    let mut random = 0;
    // Round 2 is the spec's own tests, which the mutant has passed.
    for round in (0..options.random_rounds + 3).filter(|&r| r != 2) {
        let mut inputs: Vec<String> = stress::round_inputs(problem, ctx, round, options.seed)?
            .into_iter()
            .filter(|i| seen.insert(i.clone()))
            .collect();
        inputs.sort_by_key(|i| (i.len(), i.clone()));
        random += inputs.len();
        if let Some(f) = runner.first_failure(&inputs)? {
            return survived(&runner, &inputs[f.index], f.result, options);
        }
    }
    Ok(Outcome::Equivalent {
        small_inputs: small.len(),
        random_inputs: random,
        played: false,
    })
}

fn survived(
    runner: &Runner<'_>,
    input: &str,
    result: judge::TestResult,
    options: &Options,
) -> Result<Outcome, JudgeError> {
    let counterexample = stress::finish(runner, input, result, options.shrink_time)?;
    Ok(Outcome::Survived {
        counterexample: Box::new(counterexample),
    })
}

#[cfg(test)]
mod tests {
    use super::{compiler_crash, spread_order};

    /// A mutant that does not type-check is unviable; `rustc` dying for
    /// want of a thread (as it did while another judge held every process
    /// slot) says nothing about the mutant.
    #[test]
    fn a_compiler_crash_is_not_a_compile_error() {
        let type_error = "error[E0308]: mismatched types\n --> main.rs:12:20\n   |\n12 |     let x: u64 = true;\n   |            ---   ^^^^ expected `u64`, found `bool`\n\nerror: aborting due to 1 previous error\n\nFor more information about this error, try `rustc --explain E0308`.";
        assert_eq!(compiler_crash(type_error), None);
        let unknown_name = "error[E0425]: cannot find value `spawn` in this scope\nerror: aborting due to 1 previous error";
        assert_eq!(compiler_crash(unknown_name), None);
        let thread = "thread 'rustc' (4) panicked at compiler/rustc_codegen_ssa/src/back/write.rs:1305:10:\nfailed to spawn helper thread: Os { code: 11, kind: WouldBlock, message: \"Resource temporarily unavailable\" }\n\nerror: the compiler unexpectedly panicked. This is a bug";
        assert_eq!(compiler_crash(thread), Some("rustc panicked"));
        let ctrlc = "thread 'main' (2) panicked at compiler/rustc_driver_impl/src/lib.rs:1654:6:\nUnable to install ctrlc handler: System(Os { code: 11, kind: WouldBlock, message: \"Resource temporarily unavailable\" })";
        assert_eq!(compiler_crash(ctrlc), Some("EAGAIN"));
    }

    #[test]
    fn the_spread_order_visits_every_mutant_once_halves_first() {
        for n in 0..70 {
            let order = spread_order(n);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n = {n}");
        }
        assert_eq!(spread_order(8), [0, 4, 2, 6, 1, 5, 3, 7]);
        // A budget that allows a quarter of 100 mutants judges some from
        // every quarter of the reference.
        let first: Vec<usize> = spread_order(100).into_iter().take(25).collect();
        for quarter in 0..4 {
            assert!(
                first.iter().any(|&i| i / 25 == quarter),
                "{first:?} misses quarter {quarter}"
            );
        }
    }
}
