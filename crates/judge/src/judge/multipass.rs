//! One test of a multi-pass problem (an ICPC package's `type: multi-pass`,
//! alone or with `interactive`).
//!
//! The submission runs as on any test, and its output (or the interaction)
//! is judged by the output validator (or the interactor). When the
//! validator accepts and has written `nextpass.in` into its feedback
//! folder, the submission runs again, a fresh run with fresh limits, with
//! that file as its input; the validator is then called with it as the
//! input too, and the feedback folder keeps its other files from pass to
//! pass. So a pass is judged exactly as a test is judged today, and the
//! loop around the passes adds only the format's rules, which
//! [`crate::verdict::multipass`] decides.
//!
//! The test's time and memory are the largest of its passes, since each
//! pass has the whole limit.

use std::path::{Path, PathBuf};

use super::context::Context;
use super::interactor_program;
use super::outcome;
use super::prepared::{Prepared, PreparedTest};
use super::result::TestResult;
use crate::language::Compiled;
use crate::verdict::Verdict;
use crate::verdict::multipass::{AfterPass, NEXT_PASS, after_pass};

/// What one pass came to.
struct Pass {
    result: TestResult,
    /// Set when the validator asked for another pass.
    next: Option<PathBuf>,
}

/// Runs and judges one test in up to `passes` passes; never fails:
/// problems become `IE`.
pub fn judge_test(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    passes: u32,
    lender: Option<&dyn crate::sandbox::Lender>,
) -> TestResult {
    let mut r = TestResult::unjudged(&test.name, &test.group);
    let dir = match tempfile::Builder::new()
        .prefix("passes-")
        .tempdir_in(ctx.workroot.path())
    {
        Ok(d) => d,
        Err(e) => {
            r.message = format!("the judge could not create the folder of the passes: {e}");
            return r;
        }
    };
    let feedback = dir.path().join("feedback");
    if let Err(e) = std::fs::create_dir(&feedback) {
        r.message = format!("the judge could not create the feedback folder: {e}");
        return r;
    }
    let mut input = test.input.clone();
    let mut worst: Option<TestResult> = None;
    for pass in 1..=passes {
        let Pass { result, next } =
            one_pass(prepared, ctx, program, test, &input, &feedback, lender);
        let merged = slowest(worst.take(), result);
        let done = |verdict: Verdict, message: String| {
            let mut r = merged.clone();
            r.verdict = verdict;
            r.message = message;
            r
        };
        match (
            after_pass(
                pass,
                passes,
                merged.verdict,
                &merged.message,
                next.is_some(),
            ),
            next,
        ) {
            (AfterPass::Next, Some(next)) => {
                // Removed from the feedback folder before the next pass,
                // as the format says; it becomes that pass's input.
                let moved = dir.path().join(format!("pass-{}.in", pass + 1));
                if let Err(e) = std::fs::rename(&next, &moved) {
                    return done(
                        Verdict::IE,
                        format!("pass {pass}: the judge could not take {NEXT_PASS}: {e}"),
                    );
                }
                input = moved;
                worst = Some(merged);
            }
            (AfterPass::Done(verdict, message), _) => return done(verdict, message),
            // `Next` only follows a request for another pass.
            (AfterPass::Next, None) => return done(Verdict::IE, "no next pass".into()),
        }
    }
    // Only reached with `passes == 0`, which the package reader refuses.
    r.message = "no pass was run".into();
    r
}

/// The result of the passes so far and of the latest one: the latest
/// one's verdict, message and exit, the largest time and memory.
fn slowest(before: Option<TestResult>, mut latest: TestResult) -> TestResult {
    if let Some(b) = before {
        latest.time = latest.time.max(b.time);
        latest.wall = latest.wall.max(b.wall);
        latest.memory = latest.memory.max(b.memory);
    }
    latest
}

/// The validator's request for another pass, when it made one.
fn next_pass(feedback: &Path) -> Option<PathBuf> {
    let next = feedback.join(NEXT_PASS);
    next.is_file().then_some(next)
}

/// One pass on `input`, judged as a test is (interactively when the
/// problem has an interactor program), the validator's feedback folder
/// being `feedback`.
fn one_pass(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    input: &Path,
    feedback: &Path,
    lender: Option<&dyn crate::sandbox::Lender>,
) -> Pass {
    if let (Some(spec), Some(interactor)) = (&prepared.problem.interactor, &prepared.interactor) {
        let (protocol, args) = super::prepared::protocol_of(spec);
        let result = interactor_program::judge_pass(
            prepared,
            ctx,
            program,
            test,
            input,
            Some(feedback),
            (interactor, protocol, args),
        );
        return Pass {
            result,
            next: next_pass(feedback),
        };
    }
    let result = outcome::judge_run(prepared, ctx, program, test, input, Some(feedback), lender);
    // A file left from an earlier pass cannot be there (it was moved), so
    // one found now is this pass's request.
    Pass {
        result,
        next: next_pass(feedback),
    }
}
