//! `score.txt` and `score_multiplier.txt`: what an ICPC scoring package's
//! output validator may write into its feedback folder for an accepted
//! test, as the format's "Scoring test cases" says: `score.txt` is the
//! test's score (at most its maximum), `score_multiplier.txt` the share of
//! its maximum (0 to 1); neither, the whole of it. Samples score nothing,
//! so a file written on one is ignored. A file that breaks these rules is
//! the package's fault (`IE`), as the format calls it a judge error.
//!
//! A test's maximum is the points of the grundy group it was put in: one
//! test's share of a `sum` group, or a whole `min` group
//! (`spec::icpc::scoring`).

use std::path::Path;

use super::prepare::Prepared;

/// The most bytes read of either file: one number.
const CAP: u64 = 4096;

/// The share of its credit the accepted test in `group` earns, from the
/// files in `feedback`; `None` when it earns all of it.
pub(super) fn share(
    prepared: &Prepared,
    group: &str,
    feedback: &Path,
) -> Result<Option<f64>, String> {
    if group == crate::generate::SAMPLE_GROUP
        || crate::spec::icpc::score_file_unused(&prepared.problem.dir, group)
    {
        return Ok(None);
    }
    // Read without following links the validator may have made.
    let read = |name: &str| {
        crate::beneath::read(feedback, name, CAP)
            .map_err(|e| format!("the output validator's {name}: {e}"))
    };
    let (score, multiplier) = match (read("score.txt"), read("score_multiplier.txt")) {
        (Ok(s), Ok(m)) => (s, m),
        // No feedback folder: the validator wrote nothing.
        _ if !feedback.is_dir() => return Ok(None),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    if (score.is_none() && multiplier.is_none())
        || !crate::spec::icpc::is_scoring(&prepared.problem.dir)
    {
        return Ok(None);
    }
    let number = |name: &str, bytes: &[u8]| -> Result<f64, String> {
        String::from_utf8_lossy(bytes)
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| {
                format!("the output validator's {name} does not hold one non-negative number")
            })
    };
    match (score, multiplier) {
        (Some(_), Some(_)) => {
            Err("the output validator wrote both score.txt and score_multiplier.txt".into())
        }
        (None, Some(m)) => {
            let m = number("score_multiplier.txt", &m)?;
            if m > 1.0 {
                return Err(format!(
                    "the output validator's score_multiplier.txt says {m}, more than 1"
                ));
            }
            Ok(Some(m))
        }
        (Some(s), None) => {
            let s = number("score.txt", &s)?;
            let max = prepared
                .problem
                .groups
                .iter()
                .find(|g| g.name == group)
                .map_or(0.0, |g| g.points);
            if max <= 0.0 {
                // A test worth nothing here: nothing to share.
                return Ok(None);
            }
            if s > max * (1.0 + 1e-9) {
                return Err(format!(
                    "the output validator's score.txt says {s}, more than the test's maximum {max}"
                ));
            }
            Ok(Some(s / max))
        }
        (None, None) => Ok(None),
    }
}
