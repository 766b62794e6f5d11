//! The time limit of an ICPC package that states none, derived as the
//! format says: from the slowest test of the accepted submissions, times
//! `ac_to_time_limit`, rounded up to a multiple of `time_resolution`
//! (`spec::TimeRule`). problemtools computes it the same way; BAPCtools
//! does it in `bt time_limit` and writes it back to `problem.yaml`.
//!
//! Done when the problem is prepared, so that `judge` and `verify` judge
//! with the same limit, and said in a note naming the submission and the
//! test it comes from.

use std::time::Duration;

use super::prepare::{Context, Prepared};
use super::{JudgeError, Options, judge, known_submissions};
use crate::verdict::Verdict;

/// The bound the accepted submissions run under while the limit is being
/// found (problemtools allows 300 s; an accepted run near it would make a
/// limit no contest uses).
const MEASURING_LIMIT: Duration = Duration::from_secs(60);

/// Sets `prepared`'s time limit from its accepted submissions when the
/// package gives none; a note says what it was derived from.
pub(super) fn apply(prepared: &mut Prepared, ctx: &Context) -> Result<(), JudgeError> {
    let Some(rule) = prepared.problem.time_rule else {
        return Ok(());
    };
    let accepted: Vec<_> = known_submissions(&prepared.problem.dir)
        .into_iter()
        .filter(|(v, _)| *v == Verdict::AC)
        .map(|(_, p)| p)
        .filter(|p| {
            ctx.languages
                .detect(p)
                .is_ok_and(|l| crate::language::missing_toolchain(l).is_none())
        })
        .collect();
    let kept = prepared.problem.limits.time;
    prepared.problem.limits.time = MEASURING_LIMIT;
    let mut slowest: Option<(Duration, String, String)> = None;
    for path in &accepted {
        let Ok(result) = judge(prepared, ctx, path, &Options::default(), &mut |_| {}) else {
            continue;
        };
        if result.verdict != Verdict::AC {
            continue;
        }
        for t in &result.tests {
            if slowest.as_ref().is_none_or(|(s, _, _)| t.time > *s) {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                slowest = Some((t.time, name, t.name.clone()));
            }
        }
    }
    let note = match slowest {
        Some((time, submission, test)) => {
            let limit = rule.limit(time);
            prepared.problem.limits.time = limit;
            format!(
                "time limit {} s, derived as the format says: the slowest accepted run ({submission} on {test}, {:.3} s) × ac_to_time_limit {}, rounded up to a multiple of time_resolution {} s",
                limit.as_secs_f64(),
                time.as_secs_f64(),
                rule.ac_to_time_limit,
                rule.resolution
            )
        }
        None => {
            prepared.problem.limits.time = kept;
            format!(
                "no time limit given and no accepted submission ran here to derive one: judged with {} s",
                kept.as_secs_f64()
            )
        }
    };
    prepared.problem.notes.push(note);
    Ok(())
}
