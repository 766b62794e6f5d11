//! `score.txt` and `score_multiplier.txt`: what an ICPC scoring package's
//! output validator (or interactor) may write into its feedback folder for an accepted
//! test, as the format's "Scoring test cases" says: `score.txt` is the
//! test's score (at most its maximum), `score_multiplier.txt` the share of
//! its maximum (0 to 1); neither, the whole of it. Samples score nothing,
//! so a file written on one is ignored. A file that breaks these rules is
//! the package's fault (`IE`), as the format calls it a judge error.
//!
//! A test's maximum is the points of the grundy group it was put in: one
//! test's share of a `sum` group, or a whole `min` group
//! (see the package loader's scoring).

use std::path::Path;

use super::prepared::Prepared;

/// The most bytes read of either file: one number.
const CAP: u64 = 4096;

/// Why the files a validator wrote make the test `IE`. The test's message
/// is the chain ([`super::Chain`]): the context, then the cause. `who` is
/// whose files they are: "output validator" or "interactor".
#[derive(Debug, thiserror::Error)]
pub enum ScoreFileError {
    /// A file could not be read (a link, a folder, not readable).
    #[error("the {who}'s {name}")]
    Read {
        who: &'static str,
        name: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("the {who} wrote both score.txt and score_multiplier.txt")]
    Both { who: &'static str },
    #[error("the {who}'s {name} does not hold one non-negative number")]
    NotANumber {
        who: &'static str,
        name: &'static str,
    },
    #[error("the {who}'s score_multiplier.txt says {multiplier}, more than 1")]
    MultiplierAboveOne { who: &'static str, multiplier: f64 },
    #[error("the {who}'s score.txt says {score}, more than the test's maximum {max}")]
    AboveMaximum {
        who: &'static str,
        score: f64,
        max: f64,
    },
}

/// The score files a validator left, read before its folder goes.
#[derive(Debug, Clone, Default)]
pub(super) struct Files {
    /// Whose files they are, for messages: "output validator", "interactor".
    who: &'static str,
    score: Option<Vec<u8>>,
    multiplier: Option<Vec<u8>>,
}

/// Reads `score.txt` and `score_multiplier.txt` from `feedback`, the
/// feedback folder of `who` (an output validator, or an interactor: the
/// format's output validator of an interactive problem writes the same
/// files with the same meaning). No folder: no files.
pub(super) fn read(feedback: &Path, who: &'static str) -> Result<Files, ScoreFileError> {
    // Read without following links the validator may have made.
    let read = |name: &'static str| {
        crate::beneath::read(feedback, name, CAP).map_err(|source| ScoreFileError::Read {
            who,
            name,
            source,
        })
    };
    match (read("score.txt"), read("score_multiplier.txt")) {
        (Ok(score), Ok(multiplier)) => Ok(Files {
            who,
            score,
            multiplier,
        }),
        // No feedback folder: the validator wrote nothing.
        _ if !feedback.is_dir() => Ok(Files {
            who,
            ..Files::default()
        }),
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
}

/// The groups of `problem` whose validator's `score.txt` is not read
/// (2025-09 folders with an unbounded `max_score`), as the loader found
/// them.
pub(super) fn unscored_groups(problem: &crate::problem::Problem) -> Vec<String> {
    if !problem.scoring {
        return Vec::new();
    }
    problem
        .package
        .as_ref()
        .map(|p| p.unscored_groups.clone())
        .unwrap_or_default()
}

/// The share of its credit the accepted test in `group` earns, from the
/// files in `feedback` (the output validator's); `None` when it earns all
/// of it.
pub(super) fn share(
    prepared: &Prepared,
    group: &str,
    feedback: &Path,
) -> Result<Option<f64>, ScoreFileError> {
    if group == crate::generate::SAMPLE_GROUP || !prepared.scoring {
        return Ok(None);
    }
    share_of(prepared, group, read(feedback, "output validator")?)
}

/// [`share`] from files already read.
pub(super) fn share_of(
    prepared: &Prepared,
    group: &str,
    files: Files,
) -> Result<Option<f64>, ScoreFileError> {
    if group == crate::generate::SAMPLE_GROUP {
        return Ok(None);
    }
    let Files {
        who,
        score,
        multiplier,
    } = files;
    if (score.is_none() && multiplier.is_none())
        || !prepared.scoring
        || prepared.unscored_groups.iter().any(|g| g == group)
    {
        return Ok(None);
    }
    let number = |name: &'static str, bytes: &[u8]| -> Result<f64, ScoreFileError> {
        String::from_utf8_lossy(bytes)
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or(ScoreFileError::NotANumber { who, name })
    };
    match (score, multiplier) {
        (Some(_), Some(_)) => Err(ScoreFileError::Both { who }),
        (None, Some(m)) => {
            let m = number("score_multiplier.txt", &m)?;
            if m > 1.0 {
                return Err(ScoreFileError::MultiplierAboveOne { who, multiplier: m });
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
                return Err(ScoreFileError::AboveMaximum { who, score: s, max });
            }
            Ok(Some(s / max))
        }
        (None, None) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_read_is_the_context_then_the_cause() {
        let e = ScoreFileError::Read {
            who: "output validator",
            name: "score.txt",
            source: std::io::Error::other("too many levels of symbolic links"),
        };
        assert_eq!(e.to_string(), "the output validator's score.txt");
        // The test's message, and what the CLI would print.
        assert_eq!(
            super::super::Chain(&e).to_string(),
            "the output validator's score.txt: too many levels of symbolic links"
        );
        assert_eq!(
            format!("{:#}", anyhow::Error::from(e)),
            "the output validator's score.txt: too many levels of symbolic links"
        );
        let e = ScoreFileError::AboveMaximum {
            who: "output validator",
            score: 12.5,
            max: 10.0,
        };
        assert_eq!(
            super::super::Chain(&e).to_string(),
            "the output validator's score.txt says 12.5, more than the test's maximum 10"
        );
    }
}
