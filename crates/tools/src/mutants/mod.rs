//! `grundy mutants`: measure a problem's tests by the mutants of its
//! accepted programs they reject, and close the gaps (`--harden`).
//!
//! The known-wrong submissions of a problem show that the tests catch the
//! mistakes someone thought of. A mutant is a mistake nobody had to think
//! of: an accepted program with one operator swapped, one constant moved,
//! one condition negated, or one value held in less room than the
//! constraints need ([`source`]). The programs are the reference and every
//! accepted submission, in C, C++, Java, Python and Rust ([`programs`]):
//! a C or Java program makes the mistakes of representation (an `int` for
//! a `long long`, a loop over 31 bits) that a mutant of an idiomatic Rust
//! reference never does. Each mutant is built and judged on the problem's
//! tests like any submission ([`search`]); one that passes them all is
//! compared with the reference on the oracle's small positions, on inputs
//! across the whole range and format, and on seeded random inputs: if they
//! never differ it is *equivalent* (the evidence is the inputs compared),
//! otherwise it *survived* and the input is shrunk with `stress`'s
//! shrinker. The score is over the union of all programs' mutants.
//! [`harden`] writes each survivor's input into the spec as a new group.
//!
//! A played problem's programs are players, with no answers to compare:
//! [`play`] plays each mutant that passed the tests against the built-in
//! interactor instead, and a game it loses is its counterexample.

pub mod harden;
pub mod play;
pub mod programs;
mod results;
mod search;
pub mod source;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::judge::{self, Context, JudgeError, Slots, pool};
use crate::problem::{Problem, ProblemId};
use crate::verdict::Verdict;

pub use programs::Program;
pub use results::{Counts, Evidence, MutantResult, Outcome, ProblemMutants, ProgramEntry};
pub use source::{Class, Language, Mutant, Widths, mutants};

/// Why a problem's mutants cannot be measured.
#[derive(Debug, Error)]
pub enum MutantsError {
    #[error(
        "{problem}: no program to mutate (the reference, `reference:` in the spec, or an accepted submission in C, C++, Java, Python or Rust)"
    )]
    NoProgram { problem: ProblemId },
    #[error("{}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Parse {
        path: PathBuf,
        source: source::ParseError,
    },
    #[error("{}: not accepted by the problem's own tests ({verdict}); mutants needs correct programs (run `grundy verify`)", path.display())]
    BadProgram { path: PathBuf, verdict: Verdict },
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
    /// Runs using a CPU at once (`--jobs`), as for `judge` and `grade`:
    /// mutants are judged side by side through the judge's pool, and
    /// every test run takes one of these slots.
    pub jobs: usize,
    /// Slots shared with other work going on at once; None: slots of
    /// `jobs` for this measure alone (see `judge::Options::slots`).
    pub slots: Option<Arc<Slots>>,
    /// No mutant is started after this much time (from when the first
    /// one is); those left are reported as not run.
    pub time_budget: Option<Duration>,
    /// Fresh random rounds (tiny, small, full size in turn) compared after
    /// the oracle's small positions.
    pub random_rounds: u64,
    /// Seed of the random rounds.
    pub seed: u64,
    /// Time for shrinking one survivor's input.
    pub shrink_time: Duration,
    /// Mutate only these programs (`--program`); every accepted one when
    /// empty.
    pub only: Vec<PathBuf>,
    /// Judge only the mutants of these kinds (`--kind`; a trailing `*`
    /// matches a prefix: `narrow-*`); every kind when empty.
    pub kinds: Vec<String>,
}

impl Options {
    fn wants(&self, kind: &str) -> bool {
        self.kinds.is_empty()
            || self.kinds.iter().any(|k| match k.strip_suffix('*') {
                Some(prefix) => kind.starts_with(prefix),
                None => kind == k,
            })
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: 1,
            slots: None,
            time_budget: None,
            random_rounds: 3,
            seed: 1,
            shrink_time: Duration::from_secs(20),
            only: Vec::new(),
            kinds: Vec::new(),
        }
    }
}

/// The programs to mutate: the problem's, or those `only` names (any
/// source file in a language the engine reads, accepted or not listed).
fn chosen(problem: &Problem, only: &[PathBuf]) -> Vec<Program> {
    let all = programs::of(problem);
    if only.is_empty() {
        return all;
    }
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    };
    only.iter()
        .filter_map(|path| {
            all.iter()
                .find(|p| same(&p.path, path))
                .cloned()
                .or_else(|| {
                    Some(Program {
                        path: path.clone(),
                        language: Language::of_path(path)?,
                        reference: problem.reference.as_deref().is_some_and(|r| same(r, path)),
                    })
                })
        })
        .collect()
}

/// Reads a program's source, bounded: a package file is hostile input.
fn read_source(path: &Path) -> Result<String, String> {
    crate::problem::file::read_capped(path, source::MAX_SOURCE as u64)
        .and_then(crate::beneath::utf8)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::FileTooLarge => {
                format!("more than the {} KiB mutated", source::MAX_SOURCE / 1024)
            }
            _ => format!("cannot read it: {e}"),
        })
}

/// Generates, builds and judges every mutant of the problem's programs.
/// `progress` hears of each mutant as it is decided (in any order).
pub fn run(
    problem: &Problem,
    ctx: &Context,
    options: &Options,
    progress: &(dyn Fn(&MutantResult) + Sync),
) -> Result<ProblemMutants, MutantsError> {
    let started = Instant::now();
    let programs = chosen(problem, &options.only);
    if programs.is_empty() {
        return Err(MutantsError::NoProgram {
            problem: problem.id.clone(),
        });
    }
    let widths = programs::widths(problem);
    let mut entries = Vec::new();
    let mut all: Vec<(usize, Mutant)> = Vec::new();
    for (i, program) in programs.iter().enumerate() {
        let made = read_source(&program.path).and_then(|text| {
            source::mutants(program.language, &text, &widths).map_err(|e| e.to_string())
        });
        let skipped = match made {
            Ok(ms) => {
                all.extend(
                    ms.into_iter()
                        .filter(|m| options.wants(&m.kind))
                        .map(|m| (i, m)),
                );
                None
            }
            Err(why) => Some(why),
        };
        entries.push(ProgramEntry {
            program: program.clone(),
            skipped,
        });
    }
    // The problem as judged: its answers come from its own reference when
    // it has one, else from the first program.
    let mut problem = problem.clone();
    if problem.reference.is_none() {
        problem.reference = Some(programs[0].path.clone());
    }
    let reference = problem.reference.clone().unwrap_or_default();
    let slots = options
        .slots
        .clone()
        .unwrap_or_else(|| Arc::new(Slots::new(options.jobs)));
    // Every judging below shares these slots: at most `jobs` runs use a
    // CPU at once, whichever mutant they belong to.
    let options = &Options {
        jobs: slots.jobs(),
        slots: Some(slots.clone()),
        ..options.clone()
    };
    let prepared = judge::prepare(&problem, ctx)?;
    for e in entries.iter().filter(|e| e.skipped.is_none()) {
        let check = judge::judge(
            &prepared,
            ctx,
            &e.program.path,
            &judge::Options {
                jobs: options.jobs,
                fail_fast: true,
                slots: options.slots.clone(),
                ..judge::Options::default()
            },
            &mut |_| {},
        )?;
        if check.verdict != Verdict::AC {
            return Err(MutantsError::BadProgram {
                path: e.program.path.clone(),
                verdict: check.verdict,
            });
        }
    }
    let dirs = mutant_dirs(ctx, &problem.id, &programs)?;
    // The budget is for judging mutants: checking the programs first is
    // not counted against it.
    let deadline = options.time_budget.map(|b| Instant::now() + b);
    let order = spread_order(all.len());
    let mut decided: Vec<Option<MutantResult>> = vec![None; all.len()];
    // The judge's pool, as a batch uses it: a worker per judging that may
    // be under way at once, admitted by the slots (`jobs` of them, and one
    // more per run that sleeps with its slot lent).
    let work = |k: usize, tx: &std::sync::mpsc::Sender<(usize, MutantResult)>| {
        let Some(&i) = order.get(k) else { return };
        let Some((p, mutant)) = all.get(i) else {
            return;
        };
        let Some(_admitted) = slots.admit(None) else {
            return;
        };
        let outcome = if deadline.is_some_and(|d| Instant::now() >= d) {
            Outcome::NotRun
        } else {
            judge_one(&prepared, ctx, &programs[*p], &dirs[*p], mutant, options)
        };
        let result = MutantResult {
            program: *p,
            mutant: mutant.clone(),
            outcome,
        };
        // The receiver lives until every worker is done.
        let _ = tx.send((i, result));
    };
    pool::run(
        slots.most_alive(),
        all.len(),
        &|| false,
        &work,
        |(i, result)| {
            progress(&result);
            decided[i] = Some(result);
        },
    );
    let results = decided
        .into_iter()
        .zip(&all)
        .map(|(r, (p, m))| {
            r.unwrap_or_else(|| MutantResult {
                program: *p,
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
        programs: entries,
        results,
        elapsed: started.elapsed(),
        played: play::game_of(&problem).is_some(),
    })
}

/// One folder per program under the work root, for its mutants' files.
fn mutant_dirs(
    ctx: &Context,
    id: &ProblemId,
    programs: &[Program],
) -> Result<Vec<PathBuf>, MutantsError> {
    programs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let dir = ctx
                .workroot
                .path()
                .join("mutants")
                .join(&id.0)
                .join(format!("{i}-{}", p.slug()));
            std::fs::create_dir_all(&dir).map_err(|source| MutantsError::Write {
                path: dir.clone(),
                source,
            })?;
            Ok(dir)
        })
        .collect()
}

fn judge_one(
    prepared: &judge::Prepared,
    ctx: &Context,
    program: &Program,
    dir: &Path,
    mutant: &Mutant,
    options: &Options,
) -> Outcome {
    let path = dir.join(format!(
        "mutant-{}.{}",
        mutant.index,
        program.language.extension()
    ));
    let group = harden::group_base(program, mutant);
    search::evaluate(prepared, ctx, mutant, &path, &group, options)
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
    let programs: Vec<Program> = before.programs.iter().map(|e| e.program.clone()).collect();
    let dirs = mutant_dirs(ctx, &problem.id, &programs)?;
    let mut after = before.clone();
    for r in &mut after.results {
        if let Outcome::Survived { .. } = r.outcome {
            r.outcome = judge_one(
                &prepared,
                ctx,
                &programs[r.program],
                &dirs[r.program],
                &r.mutant,
                options,
            );
        }
    }
    after.elapsed = started.elapsed();
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::spread_order;

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
        // every quarter of the programs.
        let first: Vec<usize> = spread_order(100).into_iter().take(25).collect();
        for quarter in 0..4 {
            assert!(
                first.iter().any(|&i| i / 25 == quarter),
                "{first:?} misses quarter {quarter}"
            );
        }
    }
}
