//! The time margins problemtools checks: an accepted submission should use
//! at most half the time limit on every test (else a slower judge machine
//! may reject it), and a submission known to be too slow should not finish
//! within 1.5 times the limit (else a faster machine may accept it). Both
//! are warnings: the verdicts are still right today.

use std::time::Duration;

use crate::judge::{Context, Prepared, SubmissionResult, execute, run_limits};
use crate::language::{CompileOutcome, Language, compile};
use crate::sandbox::{Exit, RunLimits};

/// The share of the time limit an accepted submission may use quietly.
pub const ACCEPTED_SHARE: f64 = 0.5;
/// How far above the time limit a known-TLE submission must still run.
pub const TLE_MARGIN: f64 = 1.5;

/// The time limit a run of `language` gets on this problem (the language's
/// multiplier included where the problem allows one).
pub fn limit_for(prepared: &Prepared, language: &Language) -> Duration {
    let limits = &prepared.problem.limits;
    if limits.language_allowance {
        limits.time.mul_f64(language.time_multiplier)
    } else {
        limits.time
    }
}

/// The test an accepted result spends the most CPU time on: (name, ms).
pub fn slowest(r: &SubmissionResult) -> Option<(String, f64)> {
    r.tests
        .iter()
        .map(|t| (t.name.clone(), t.time_ms()))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// The warning for an accepted result over half its limit, if it is.
pub fn accepted_warning(what: &str, r: &SubmissionResult, limit: Duration) -> Option<String> {
    let (test, ms) = slowest(r)?;
    let limit_ms = limit.as_secs_f64() * 1000.0;
    (ms > limit_ms * ACCEPTED_SHARE).then(|| {
        format!(
            "{what} uses {ms:.0} ms on {test}, more than half the time limit ({limit_ms:.0} ms): \
             a slower machine may reject it"
        )
    })
}

/// The share of the time limit above which a known-TLE submission that
/// was accepted ran near enough to it for the machine's load to decide.
pub const NEAR_SHARE: f64 = 0.9;

/// The warning for a known-TLE submission accepted near its limit (its
/// slowest test, `(name, ms)`, over [`NEAR_SHARE`] of it): the verdict
/// flips from one run to the next on a loaded machine, and a derived limit
/// that lands there is one no judge can hold.
pub fn near_limit_warning(slowest: Option<(String, f64)>, limit: Duration) -> Option<String> {
    let (test, ms) = slowest?;
    let limit_ms = limit.as_secs_f64() * 1000.0;
    (limit_ms > 0.0 && ms > limit_ms * NEAR_SHARE).then(|| {
        format!(
            "known too slow, yet accepted: {ms:.0} ms on {test}, {:.0}% of the time limit \
             ({limit_ms:.0} ms): this near the limit the verdict changes with the machine's load",
            ms / limit_ms * 100.0
        )
    })
}

/// The run of a known-TLE submission with 1.5 times the limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MarginRun {
    /// CPU time, in ms.
    pub time_ms: f64,
    /// Whether it ended by itself with status 0, within the longer limit.
    pub finished: bool,
}

/// Runs a known-TLE submission again on the test that rejected it, with
/// 1.5 times the limit (an ICPC package's own `time_limit_to_tle`): that
/// run, and the warning if it finished.
pub fn tle_check(
    prepared: &Prepared,
    ctx: &Context,
    submission: &std::path::Path,
    language: &Language,
    test_name: &str,
) -> Option<(MarginRun, Option<String>)> {
    let test = prepared.tests.iter().find(|t| t.name == test_name)?;
    // Built as the judge built it: a package's constants replaced.
    let staged = crate::problem::stage(submission, &prepared.problem, &ctx.cache).ok()?;
    let submission = staged.as_deref().unwrap_or(submission);
    let CompileOutcome::Ready(program) =
        compile(language, submission, &ctx.cache, &ctx.sandbox).ok()?
    else {
        return None;
    };
    let mut limits = run_limits(&program, &prepared.problem.limits);
    let limit = limits.cpu;
    let margin = prepared.problem.tle_margin.unwrap_or(TLE_MARGIN);
    let named = if prepared.problem.tle_margin.is_some() {
        format!("time_limit_to_tle {margin}×")
    } else {
        format!("{margin}×")
    };
    limits.cpu = limit.mul_f64(margin);
    limits.wall = RunLimits::wall_for(limits.cpu);
    let exec = execute(
        &program,
        &test.input,
        limits,
        prepared.problem.limits.memory,
        ctx,
    )
    .ok()?;
    let o = &exec.outcome;
    let run = MarginRun {
        time_ms: o.cpu.as_secs_f64() * 1000.0,
        finished: !o.crossed.any() && o.exit == Exit::Code(0) && o.cpu <= limits.cpu,
    };
    let warning = run.finished.then(|| {
        format!(
            "known too slow, yet finishes {test_name} in {:.0} ms, within {named} the time \
             limit ({:.0} ms): a faster machine may accept it",
            o.cpu.as_secs_f64() * 1000.0,
            limit.as_secs_f64() * 1000.0
        )
    });
    Some((run, warning))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accepted_run_near_the_limit_is_a_warning() {
        let limit = Duration::from_secs(16);
        let w = near_limit_warning(Some(("big".into(), 15_400.0)), limit).expect("warned");
        assert!(
            w.contains("15400 ms on big, 96% of the time limit (16000 ms)"),
            "{w}"
        );
        assert_eq!(
            near_limit_warning(Some(("big".into(), 9_000.0)), limit),
            None
        );
        assert_eq!(near_limit_warning(None, limit), None);
    }
}
