//! One ordinary test ([`super::Kind::Ordinary`]): run the program, gather
//! what the run did as facts, and let [`crate::verdict::decide`] turn them
//! (and, for a clean run, the checker's word) into the verdict.

use super::context::Context;
use super::exec::{Execute, run_limits};
use super::prepared::{Prepared, PreparedTest};
use super::result::{Diff, TestResult};
use crate::check::{CheckCase, CheckVerdict};
use crate::language::Compiled;
use crate::run_kind::RunKind;
use crate::sandbox::Lender;
use crate::verdict::Verdict;
use crate::verdict::decide::{self, CheckerSaid, RunFacts};

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
    let exec = match Execute::new(RunKind::Submission, program, input, limits, memory)
        .lending(lender)
        .run(ctx)
    {
        Ok(e) => e,
        Err(e) => {
            r.not_run(e, "the judge could not run the program");
            return r;
        }
    };
    let o = &exec.outcome;
    r.record_run(o);
    let mut checked = None;
    let verdict =
        decide::test_verdict(&RunFacts::of(o, &exec.stderr_head), &limits, memory, || {
            let c = match feedback {
                Some(dir) => check_output_at(prepared, input, answer, &exec, dir),
                None => check_output(prepared, test, answer, &exec),
            };
            let said = c.0;
            checked = Some(c);
            said
        });
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
