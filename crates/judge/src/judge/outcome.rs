//! One test: run the program, gather what the run did as facts, and let
//! [`crate::verdict::decide`] turn them (and, for a clean run, the
//! checker's word) into the verdict.

use super::exec::{execute_lending, run_limits};
use super::prepare::{Context, Prepared, PreparedTest};
use super::result::{Diff, TestResult};
use crate::check::{CheckCase, CheckVerdict};
use crate::language::Compiled;
use crate::sandbox::{Exit, Lender, RunLimits, RunOutcome, SandboxError};
use crate::units::Bytes;
use crate::verdict::Verdict;
use crate::verdict::decide::{self, CheckerSaid, Ended, RunBudget, RunFacts};

/// Runs and checks one test; never fails: problems become `IE`. A run
/// that is not interactive tells `lender` when it sleeps (its `--jobs`
/// slot); an interactive one keeps its slot, its idleness clock bounding
/// it.
pub fn judge_test(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    lender: Option<&dyn Lender>,
) -> TestResult {
    if let Some(passes) = prepared.problem.passes {
        return super::multipass::judge_test(prepared, ctx, program, test, passes, lender);
    }
    if let Some(game) = super::interactive::PlayedGame::of(&prepared.problem) {
        return super::interactive::judge_test(prepared, ctx, program, test, &game);
    }
    if let (Some(spec), Some(interactor)) = (&prepared.problem.interactor, &prepared.interactor) {
        return super::interactor_program::judge_test_with(
            prepared, ctx, program, test, spec, interactor,
        );
    }
    judge_run(prepared, ctx, program, test, &test.input, None, lender)
}

/// Runs `program` on `input` (the test's, or a later pass's of a multi-pass
/// test) and checks its output, the checker's feedback folder being
/// `feedback` (else one of the run's own).
pub(super) fn judge_run(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    input: &std::path::Path,
    feedback: Option<&std::path::Path>,
    lender: Option<&dyn Lender>,
) -> TestResult {
    let mut r = TestResult::unjudged(&test.name, &test.group);
    let answer = match &test.answer {
        Ok(a) => a,
        Err(why) => {
            r.message = why.to_string();
            return r;
        }
    };
    let limits = run_limits(program, &prepared.problem.limits);
    let memory = prepared.problem.limits.memory;
    let exec = match execute_lending(program, input, limits, memory, ctx, lender) {
        Ok(e) => e,
        Err(e) => {
            not_run(&mut r, e, "the judge could not run the program");
            return r;
        }
    };
    let o = &exec.outcome;
    r.record_run(o);
    let mut checked = None;
    let verdict = decide::test_verdict(
        &facts(o, &exec.stderr_head),
        &budget(&limits, memory),
        || {
            let c = match feedback {
                Some(dir) => check_output_at(prepared, input, answer, &exec, dir),
                None => check_output(prepared, test, answer, &exec),
            };
            let said = c.0;
            checked = Some(c);
            said
        },
    );
    match verdict {
        Err(d) => {
            r.decided_by_run(d);
            r.stderr = exec.stderr_head.clone();
        }
        Ok(v) => {
            r.verdict = v;
            if let Some((_, message, diff)) = checked {
                r.message = message;
                r.diff = diff;
            }
            // A scoring package's validator may give an accepted test
            // part of its credit.
            if v == Verdict::AC {
                let own = exec.dir.path().join("feedback");
                match super::score_file::share(prepared, &test.group, feedback.unwrap_or(&own)) {
                    Ok(share) => r.share = share,
                    Err(why) => {
                        r.verdict = Verdict::IE;
                        r.message = super::Chain(&why).to_string();
                    }
                }
            }
        }
    }
    r
}

/// Records a submission's run that did not happen: a program the kernel
/// would not start is the submission's fault (`RE` with the reason), as
/// every kind of run (plain, interactive, multi-pass) must say alike; any
/// other failure is the judge's (`IE`, `r`'s verdict until set), its
/// message `doing` then the error.
pub(super) fn not_run(r: &mut TestResult, e: SandboxError, doing: &str) {
    match e {
        SandboxError::NotExecutable { source, .. } => r.decided_by_run(decide::not_started(source)),
        e => r.message = format!("{doing}: {e}"),
    }
}

/// The limits of a run, as the verdict module sees them.
/// The budget of a run held to `l`, for a problem whose own memory limit
/// is `problem_memory` (the rest of `l.memory` is the language's).
pub fn budget(l: &RunLimits, problem_memory: Bytes) -> RunBudget {
    RunBudget {
        cpu: l.cpu,
        wall: l.wall,
        memory: l.memory,
        memory_allowance: Bytes(l.memory.0.saturating_sub(problem_memory.0)),
        output: l.output,
    }
}

/// What a run did, every crossed limit included (the sandbox reports them
/// all), so the verdict does not depend on the order the sandbox looked in.
pub fn facts(o: &RunOutcome, stderr: &str) -> RunFacts {
    const OUT_OF_MEMORY: [&str; 5] = [
        "MemoryError",
        "std::bad_alloc",
        "memory allocation of",
        "java.lang.OutOfMemoryError",
        "Cannot allocate memory",
    ];
    RunFacts {
        ended: match o.exit {
            Exit::Code(c) => Ended::Code(c),
            Exit::Signal(s) => Ended::Signal(s),
        },
        cpu: o.cpu,
        wall: o.wall,
        peak_memory: o.peak_memory,
        crossed: o.crossed,
        said_out_of_memory: OUT_OF_MEMORY.iter().any(|m| stderr.contains(m)),
        first_stderr_line: stderr
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .to_string(),
    }
}

pub(super) fn check_output(
    prepared: &Prepared,
    test: &PreparedTest,
    answer: &std::path::Path,
    exec: &super::exec::Execution,
) -> (CheckerSaid, String, Option<Diff>) {
    // Created by the checkers that use it (ICPC feedback), not on every test.
    let scratch = exec.dir.path().join("feedback");
    check_output_at(prepared, &test.input, answer, exec, &scratch)
}

/// [`check_output`] of a run on `input` (a later pass of a multi-pass
/// test), with the checker's feedback folder at `scratch`.
pub(super) fn check_output_at(
    prepared: &Prepared,
    input_path: &std::path::Path,
    answer: &std::path::Path,
    exec: &super::exec::Execution,
    scratch: &std::path::Path,
) -> (CheckerSaid, String, Option<Diff>) {
    let read = |p: &std::path::Path| {
        std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let input = if prepared.checker.reads_input() {
        read(input_path)
    } else {
        Ok(Vec::new())
    };
    let (input, output, expected) = match (input, read(&exec.stdout), read(answer)) {
        (Ok(i), Ok(o), Ok(a)) => (i, o, a),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return (CheckerSaid::Failed, e, None),
    };
    let case = CheckCase {
        input: &input,
        output: &output,
        answer: &expected,
        input_path,
        output_path: &exec.stdout,
        answer_path: answer,
        scratch,
    };
    let c = prepared.checker.check(&case);
    let verdict = match c.verdict {
        CheckVerdict::Accepted => CheckerSaid::Accepted,
        CheckVerdict::WrongAnswer => CheckerSaid::WrongAnswer,
        CheckVerdict::PresentationError => CheckerSaid::PresentationError,
        CheckVerdict::Failed => CheckerSaid::Failed,
    };
    (verdict, c.message, c.diff)
}
