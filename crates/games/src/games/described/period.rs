//! Periods of Grundy sequences and their proof.
//!
//! The values of a finite octal game (a subtraction game with a finite
//! set is one, with each amount's digit 3) are eventually periodic, and
//! the periodicity theorem says when a period seen in finitely many values
//! holds for ever: if the largest take is `t` and `G(n + p) = G(n)` for
//! every `n0 ≤ n < 2·n0 + p + t`, then it holds for every `n ≥ n0`. So a
//! period is *proven* once that window has been checked on values computed
//! from the rules, and only then; a repetition that holds for a while is
//! not a proof.

use serde::Serialize;

/// `G(n + length) = G(n)` for every `n ≥ from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    pub from: u64,
    pub length: u64,
}

/// A period checked over the window of the periodicity theorem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proof {
    pub period: Period,
    /// The largest take of the game.
    pub t: u64,
    /// The window's end: `G(n + p) = G(n)` was checked for every
    /// `from ≤ n < until`, where `until = 2·from + p + t`.
    pub until: u64,
}

impl std::fmt::Display for Proof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Period { from, length } = self.period;
        write!(
            f,
            "G(n + {length}) = G(n) checked for {from} ≤ n < {} = 2·{from} + {length} + t (t = {}, the largest take); by the periodicity theorem it holds for every n ≥ {from}",
            self.until, self.t
        )
    }
}

/// Why a period is not proven by the values at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refuted {
    #[error("G({n}) differs from G({})", n + period)]
    Differs { n: u64, period: u64 },
    #[error("the window needs values up to G({needed}); only {have} are known")]
    TooShort { needed: u64, have: u64 },
    #[error("a period has a length of at least 1")]
    Empty,
}

/// Checks `period` against `values` (`values[n] = G(n)`) over the window
/// of the periodicity theorem for a game whose largest take is `t`.
pub fn prove(values: &[u64], t: u64, period: Period) -> Result<Proof, Refuted> {
    let Period { from, length } = period;
    if length == 0 {
        return Err(Refuted::Empty);
    }
    let until = 2 * from + length + t;
    let needed = until - 1 + length;
    if needed >= values.len() as u64 {
        return Err(Refuted::TooShort {
            needed,
            have: values.len() as u64,
        });
    }
    for n in from..until {
        if values[n as usize] != values[(n + length) as usize] {
            return Err(Refuted::Differs { n, period: length });
        }
    }
    Ok(Proof { period, t, until })
}

/// The shortest period (then the earliest start) that the values show up
/// to their end and that the theorem proves within them, if any. The
/// start of a length is where the values last break it, counted from the
/// end: a pattern of the first values that later breaks is never taken.
pub fn find(values: &[u64], t: u64) -> Option<Proof> {
    let len = values.len();
    for p in 1..=len / 2 {
        // The last n with G(n) != G(n + p); the period starts after it.
        let mut n = len - p;
        while n > 0 && values[n - 1] == values[n - 1 + p] {
            n -= 1;
        }
        let candidate = Period {
            from: n as u64,
            length: p as u64,
        };
        if let Ok(proof) = prove(values, t, candidate) {
            return Some(proof);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_that_holds_only_for_a_while_is_refused() {
        // Periodic with period 3 for the first 40 values, then not.
        let mut values: Vec<u64> = (0..40).map(|n| n % 3).collect();
        values.extend((40..200).map(|n| n % 5));
        // The window of the theorem (t = 2) reaches past the change.
        assert_eq!(
            prove(
                &values,
                2,
                Period {
                    from: 20,
                    length: 3
                }
            ),
            Err(Refuted::Differs { n: 37, period: 3 })
        );
        // Found from the end: period 5 from 40, never 3.
        let found = find(&values, 2).expect("a period");
        assert_eq!(
            found.period,
            Period {
                from: 40,
                length: 5
            }
        );
        // Too few values for the window: not proven.
        assert_eq!(
            prove(
                &values[..60],
                2,
                Period {
                    from: 40,
                    length: 5
                }
            ),
            Err(Refuted::TooShort {
                needed: 91,
                have: 60
            })
        );
        assert_eq!(find(&values[..60], 2), None);
    }

    #[test]
    fn the_proof_says_what_was_checked() {
        let values: Vec<u64> = (0..100).map(|n| n % 4).collect();
        let p = find(&values, 3).expect("a period");
        assert_eq!(p.period, Period { from: 0, length: 4 });
        assert_eq!(p.until, 7);
        assert!(p.to_string().contains("for 0 ≤ n < 7"), "{p}");
    }
}
