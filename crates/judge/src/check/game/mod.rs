//! Checkers written in Rust for games whose answers are not unique.
//!
//! When a problem accepts any of several outputs (any winning move), no
//! answer file can be compared token by token; these checkers recompute
//! what a correct output must satisfy from the input. New games register
//! here by name, the name used in `checker: {game: NAME}`.

mod described;
mod nim_winning_move;

pub use described::DescribedMoves;

use super::scan::{Tokens, quote};
use super::{CheckError, CheckOutcome, CheckVerdict, Checker};

/// Builds a fresh checker of one game.
type Constructor = fn() -> Box<dyn Checker>;

/// Every game checker, by the name a spec uses.
const GAMES: &[(&str, Constructor)] = &[("nim-winning-move", || {
    Box::new(nim_winning_move::NimWinningMove)
})];

/// Names accepted by `checker: {game: NAME}`, for error messages and listings.
pub fn known_games() -> impl Iterator<Item = &'static str> {
    GAMES.iter().map(|(name, _)| *name)
}

/// The game checker registered as `name`.
pub fn build_game(name: &str) -> Result<Box<dyn Checker>, CheckError> {
    GAMES
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, make)| make())
        .ok_or_else(|| CheckError::UnknownGame {
            name: name.to_string(),
            known: known_games().collect::<Vec<_>>().join(", "),
        })
}

/// A rejection of the submission's output.
fn wrong(message: impl Into<String>) -> CheckOutcome {
    CheckOutcome {
        verdict: CheckVerdict::WrongAnswer,
        message: message.into(),
        diff: None,
    }
}

/// A fault in the judge's own data (input or answer): never the
/// submission's fault, reported as `IE`.
fn failed(message: impl Into<String>) -> CheckOutcome {
    CheckOutcome {
        verdict: CheckVerdict::Failed,
        message: message.into(),
        diff: None,
    }
}

/// A decimal integer token: optional `-`, then digits. Values beyond the
/// range of `i128` saturate, which keeps range checks meaningful.
fn parse_int(token: &[u8]) -> Option<i128> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let magnitude = digits.iter().fold(0i128, |acc, &d| {
        acc.saturating_mul(10).saturating_add(i128::from(d - b'0'))
    });
    Some(if negative { -magnitude } else { magnitude })
}

/// Why the judge's input is not a counted list: a broken test, never the
/// submission's fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum InputError {
    #[error("the input is empty")]
    Empty,
    /// The count token, quoted.
    #[error("bad count {0} in the input")]
    BadCount(String),
    /// The number token, quoted.
    #[error("bad number {0} in the input")]
    BadNumber(String),
    #[error("the input has more than the {0} numbers it announces")]
    TooMany(usize),
    #[error("the input announces {announced} numbers but has {found}")]
    TooFew { announced: usize, found: usize },
}

/// Reads the judge's input as a count `n` followed by exactly `n`
/// non-negative integers; anything else is a broken test, not a wrong answer.
fn read_counted_list(input: &[u8]) -> Result<Vec<u64>, InputError> {
    let mut tokens = Tokens::new(input);
    let n_token = tokens.next().ok_or(InputError::Empty)?;
    let n = parse_int(n_token.bytes)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n >= 1)
        .ok_or_else(|| InputError::BadCount(quote(n_token.bytes)))?;
    let mut values = Vec::with_capacity(n.min(1 << 20));
    for token in tokens.by_ref() {
        let value = parse_int(token.bytes)
            .and_then(|v| u64::try_from(v).ok())
            .ok_or_else(|| InputError::BadNumber(quote(token.bytes)))?;
        values.push(value);
        if values.len() > n {
            return Err(InputError::TooMany(n));
        }
    }
    if values.len() < n {
        return Err(InputError::TooFew {
            announced: n,
            found: values.len(),
        });
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_finds_known_games_and_lists_them_otherwise() {
        assert!(build_game("nim-winning-move").is_ok());
        match build_game("chess") {
            Err(CheckError::UnknownGame { name, known }) => {
                assert_eq!(name, "chess");
                assert!(known.contains("nim-winning-move"), "{known}");
            }
            Err(other) => panic!("unexpected error {other}"),
            Ok(_) => panic!("chess is not a known game"),
        }
    }

    #[test]
    fn integers_parse_strictly() {
        assert_eq!(parse_int(b"0"), Some(0));
        assert_eq!(parse_int(b"-12"), Some(-12));
        assert_eq!(parse_int(b"007"), Some(7));
        assert_eq!(parse_int(b"+1"), None);
        assert_eq!(parse_int(b"1.0"), None);
        assert_eq!(parse_int(b"-"), None);
        assert_eq!(parse_int(b""), None);
        assert_eq!(parse_int(&[b'9'; 60]), Some(i128::MAX));
    }

    #[test]
    fn counted_lists_are_validated() {
        assert_eq!(read_counted_list(b"3\n1 2\n3"), Ok(vec![1, 2, 3]));
        let err = |s: &str| {
            read_counted_list(s.as_bytes())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert_eq!(err(""), "the input is empty");
        assert_eq!(err("0\n"), "bad count \"0\" in the input");
        assert_eq!(err("2\n1 x\n"), "bad number \"x\" in the input");
        assert_eq!(err("2\n1 -1\n"), "bad number \"-1\" in the input");
        assert_eq!(err("3\n1 2\n"), "the input announces 3 numbers but has 2");
        assert_eq!(
            err("1\n1 2\n"),
            "the input has more than the 1 numbers it announces"
        );
    }
}
