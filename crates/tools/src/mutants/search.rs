//! Judging one mutant: built and run on the problem's tests like any
//! submission; one that passes them all is compared with the reference
//! until an input tells them apart (a survivor) or none is left (an
//! equivalent, with the evidence).
//!
//! The comparison runs, in order: the catalog oracle's exhaustive small
//! positions; inputs across the whole range and format the constraints
//! allow (the highest allowed bit set alone and combined, powers of two
//! and one below, the largest input, every layout — a narrowed type is
//! "equivalent" on small inputs and wrong at the top of the range); then
//! seeded random rounds at growing sizes, as `stress` draws them.

use std::path::Path;

use crate::generate::SAMPLE_GROUP;
use crate::judge::{self, Context, JudgeError, Prepared};
use crate::problem::Problem;
use crate::stress::{self, Runner};
use crate::verdict::Verdict;
use crate::verdict::decide::Reason;

use super::play;
use super::source::Mutant;
use super::{Evidence, Options, Outcome};

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

/// Builds and judges one mutant written at `path`, then looks for an
/// input it gets wrong. `group` is the name `--harden` would give its
/// test.
pub(super) fn evaluate(
    prepared: &Prepared,
    ctx: &Context,
    mutant: &Mutant,
    path: &Path,
    group: &str,
    options: &Options,
) -> Outcome {
    if let Err(e) = std::fs::write(path, &mutant.source) {
        return Outcome::Error {
            message: format!("cannot write {}: {e}", path.display()),
        };
    }
    let judge_once = || {
        judge::judge(
            prepared,
            ctx,
            path,
            &judge::Options {
                jobs: 1,
                fail_fast: true,
                slots: options.slots.clone(),
                ..judge::Options::default()
            },
            &mut |_| {},
        )
    };
    // A test failed while the program was waiting (out of wall time, not
    // CPU time) or could not be started: on a busy machine that may be the
    // machine's doing, so the mutant is judged once more and the second
    // judging counts. A mutant that computes forever runs out of CPU time
    // and is not judged twice.
    let judged = judge_once().and_then(|first| {
        let waited = first.tests.iter().any(|t| {
            matches!(
                t.reason,
                Some(Reason::Wall { .. } | Reason::NotStarted { .. })
            )
        });
        if waited { judge_once() } else { Ok(first) }
    });
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
        Some(game) => play::search(prepared, ctx, game, path, &format!("{group}-1"), options),
        None => search(&prepared.problem, ctx, path, options),
    };
    match found {
        Ok(o) => o,
        Err(e) => Outcome::Error {
            message: e.message(),
        },
    }
}

/// Compares a mutant that passed every test with the reference: the
/// oracle's small positions (every one), the inputs across the range and
/// format, then seeded random rounds. A time limit hit once, beside a busy
/// machine, is judged again before the mutant is called a survivor.
fn search(
    problem: &Problem,
    ctx: &Context,
    path: &Path,
    options: &Options,
) -> Result<Outcome, JudgeError> {
    let mut runner = Runner::new(problem, ctx, path, 1, None);
    runner.options.slots = options.slots.clone();
    let game = problem.game.as_ref();
    let small: Vec<String> = crate::catalog::oracle_for(&problem.id.0, game)
        .map(|o| o.cases.into_iter().map(|c| c.input).collect())
        .unwrap_or_default();
    if let Some(f) = runner.first_lasting_failure(&small)? {
        return survived(&runner, &small[f.index], f.result, options);
    }
    let range: Vec<String> = crate::catalog::input_format_for(&problem.id.0, game)
        .map(|f| crate::catalog::extremes::range_inputs(&f, options.seed))
        .unwrap_or_default();
    if let Some(f) = runner.first_lasting_failure(&range)? {
        return survived(&runner, &range[f.index], f.result, options);
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
        if let Some(f) = runner.first_lasting_failure(&inputs)? {
            return survived(&runner, &inputs[f.index], f.result, options);
        }
    }
    Ok(Outcome::Equivalent(Evidence {
        small_inputs: small.len(),
        range_inputs: range.len(),
        random_inputs: random,
        played: false,
    }))
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
    use super::compiler_crash;

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
}
