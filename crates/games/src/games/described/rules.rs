//! The vocabulary of a described game's moves and ending, as a setter
//! writes it under `game:` in `problem.yaml`, and as the search reads it.
//!
//! The vocabulary is closed on purpose: every word here has moves the
//! search can list, a termination argument (every move takes a token, or
//! splits a heap into strictly smaller ones), and, where theory gives one,
//! a formula or a period that the unit tests check against the search.
//! A word outside it, or one whose game need not end, is refused while
//! serde reads it, so the refusal carries the line and column.

use std::fmt;

use serde::Deserialize;

pub use crate::games::search::Ending;

/// A count a move uses: a number written in the rules, or a parameter
/// that each case of the input gives (`k` of bounded Nim).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Amount {
    Number(u64),
    Parameter(String),
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Amount::Number(n) => write!(f, "{n}"),
            Amount::Parameter(p) => f.write_str(p),
        }
    }
}

/// How many tokens a move that touches one heap may take from it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Take {
    /// Any number from 1 to the whole heap (Nim).
    Any,
    /// A number in the set (a subtraction game: `{1, 3, 4}`).
    Set(Vec<u64>),
    /// 1 to `max` (Bash's game, bounded Nim).
    UpTo(Amount),
    /// 1 to `⌊heap · num / den⌋`: up to a fraction of the heap.
    Fraction { num: u64, den: u64 },
}

/// An octal game's code: digit `k` (from the point, `k = 1` first; the
/// digit before the point is `k = 0`) says whether a move may take `k`
/// tokens and leave no heap (bit 1), one heap (bit 2), or two heaps (bit 4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Octal {
    /// The code as written, e.g. `0.77`.
    pub code: String,
    /// `digits[k]` for `k = 0 ..= t`.
    pub digits: Vec<u8>,
}

impl Octal {
    /// The largest number of tokens a move takes (`t` of the periodicity
    /// theorem).
    pub fn largest_take(&self) -> u64 {
        self.digits.iter().rposition(|&d| d != 0).unwrap_or(0) as u64
    }
}

/// One kind of move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Move {
    /// Take tokens from one heap; what is left stays one heap.
    Take(Take),
    /// Moore's Nim_k: take at least one token from each of 1 to `k` heaps.
    Heaps(Amount),
    /// Wythoff: the same number (at least one) from two heaps.
    Wythoff,
    /// Staircase: move at least one token from a heap to the heap before
    /// it; from the first heap, off the board.
    Staircase,
    /// An octal game's moves, which may split a heap in two.
    Octal(Octal),
}

impl Move {
    /// Whether every move of this kind changes exactly one heap (so that
    /// a position is a sum of one-heap games).
    pub fn one_heap(&self) -> bool {
        matches!(self, Move::Take(_) | Move::Octal(_))
    }

    /// The parameter this kind uses, if any.
    pub fn parameter(&self) -> Option<&str> {
        match self {
            Move::Take(Take::UpTo(Amount::Parameter(p))) | Move::Heaps(Amount::Parameter(p)) => {
                Some(p)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Take(Take::Any) => f.write_str("take any number of tokens from one heap"),
            Move::Take(Take::Set(s)) => {
                let items: Vec<String> = s.iter().map(u64::to_string).collect();
                write!(f, "take {} tokens from one heap", or_list(&items))
            }
            Move::Take(Take::UpTo(a)) => write!(f, "take 1 to {a} tokens from one heap"),
            Move::Take(Take::Fraction { num, den }) => {
                write!(f, "take 1 to {num}/{den} of a heap's tokens")
            }
            Move::Heaps(a) => write!(
                f,
                "take at least one token from each of 1 to {a} heaps (any number from each)"
            ),
            Move::Wythoff => f.write_str("take the same number of tokens from two heaps"),
            Move::Staircase => f.write_str(
                "move tokens from one heap to the heap before it (from the first, off the board)",
            ),
            Move::Octal(o) => write!(f, "octal game {}", o.code),
        }
    }
}

/// `a, b or c`.
pub fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Why a move is refused: outside the vocabulary, or a game that need
/// not end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(
        "unknown move {found}; expected one of: take: any | [amounts] | {{max: K}} | {{fraction: A/B}}; heaps: K; wythoff; staircase; octal: \"0.77\""
    )]
    Unknown { found: String },
    #[error("take: {found} is not any, a list of amounts, {{max: K}} or {{fraction: A/B}}")]
    TakeShape { found: String },
    #[error("take: an amount of 0 leaves the position as it was, so the game need not end")]
    TakeZero,
    #[error("take: the list of amounts is empty")]
    EmptySet,
    #[error("{key}: `{found}` is neither a number nor a parameter name (letters, digits, `_`)")]
    AmountShape { key: &'static str, found: String },
    #[error("{key}: 0 allows no move; use at least 1")]
    AmountZero { key: &'static str },
    #[error("take.fraction: `{found}` is not a fraction A/B with 0 < A ≤ B")]
    Fraction { found: String },
    #[error(
        "octal: `{found}` is not an octal code (digits 0-7 with a point, like \"0.77\" or \"0.137\")"
    )]
    OctalShape { found: String },
    #[error("octal: `{found}` allows no move")]
    OctalEmpty { found: String },
    #[error(
        "octal: the digit before the point of `{found}` lets a move take no token and leave the heap as it was (bit 2) or take nothing from nothing (bit 1), so the game need not end; only 4 (split a heap in two) is allowed there"
    )]
    OctalZeroTake { found: String },
}

impl TryFrom<serde_yaml::Value> for Move {
    type Error = MoveError;
    fn try_from(v: serde_yaml::Value) -> Result<Move, MoveError> {
        use serde_yaml::Value;
        match &v {
            Value::String(s) if s == "wythoff" => return Ok(Move::Wythoff),
            Value::String(s) if s == "staircase" => return Ok(Move::Staircase),
            Value::Mapping(m) if m.len() == 1 => {
                if let Some((k, inner)) = m.iter().next() {
                    match k.as_str() {
                        Some("take") => return take(inner).map(Move::Take),
                        Some("heaps") => return amount("heaps", inner).map(Move::Heaps),
                        Some("octal") => return octal(inner).map(Move::Octal),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        Err(MoveError::Unknown { found: shown(&v) })
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_yaml::Value::deserialize(d)?;
        Move::try_from(v).map_err(serde::de::Error::custom)
    }
}

/// A YAML value in one line, in flow style (`[1, 3]`, `{max: k}`) as a
/// setter writes it inline, for messages.
pub fn shown(v: &serde_yaml::Value) -> String {
    let clipped: String = flow(v).chars().take(60).collect();
    format!("`{clipped}`")
}

fn flow(v: &serde_yaml::Value) -> String {
    use serde_yaml::Value;
    match v {
        Value::Sequence(items) => {
            let inner: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Mapping(m) => {
            let inner: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", flow(k), flow(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        Value::Tagged(t) => format!("{} {}", t.tag, flow(&t.value)),
        scalar => serde_yaml::to_string(scalar)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

fn take(v: &serde_yaml::Value) -> Result<Take, MoveError> {
    use serde_yaml::Value;
    match v {
        Value::String(s) if s == "any" => Ok(Take::Any),
        Value::Number(_) => match v.as_u64() {
            Some(0) => Err(MoveError::TakeZero),
            Some(n) => Ok(Take::Set(vec![n])),
            None => Err(MoveError::TakeShape { found: shown(v) }),
        },
        Value::Sequence(items) => {
            let mut set = Vec::with_capacity(items.len());
            for item in items {
                match item.as_u64() {
                    Some(0) => return Err(MoveError::TakeZero),
                    Some(n) => set.push(n),
                    None => return Err(MoveError::TakeShape { found: shown(v) }),
                }
            }
            if set.is_empty() {
                return Err(MoveError::EmptySet);
            }
            set.sort_unstable();
            set.dedup();
            Ok(Take::Set(set))
        }
        Value::Mapping(m) if m.len() == 1 => {
            let Some((k, inner)) = m.iter().next() else {
                return Err(MoveError::TakeShape { found: shown(v) });
            };
            match k.as_str() {
                Some("max") => amount("take.max", inner).map(Take::UpTo),
                Some("fraction") => fraction(inner),
                _ => Err(MoveError::TakeShape { found: shown(v) }),
            }
        }
        _ => Err(MoveError::TakeShape { found: shown(v) }),
    }
}

fn amount(key: &'static str, v: &serde_yaml::Value) -> Result<Amount, MoveError> {
    if let Some(n) = v.as_u64() {
        return if n == 0 {
            Err(MoveError::AmountZero { key })
        } else {
            Ok(Amount::Number(n))
        };
    }
    match v.as_str() {
        Some(s) if is_parameter_name(s) => Ok(Amount::Parameter(s.to_string())),
        _ => Err(MoveError::AmountShape {
            key,
            found: shown(v).trim_matches('`').to_string(),
        }),
    }
}

/// A parameter name: a letter, then letters, digits or `_` (at most 16).
pub fn is_parameter_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.len() <= 16
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn fraction(v: &serde_yaml::Value) -> Result<Take, MoveError> {
    let text = match v {
        serde_yaml::Value::String(s) => s.clone(),
        serde_yaml::Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let parsed = text.split_once('/').and_then(|(a, b)| {
        let num: u64 = a.trim().parse().ok()?;
        let den: u64 = b.trim().parse().ok()?;
        (num > 0 && num <= den && den <= 1_000_000).then_some((num, den))
    });
    match parsed {
        Some((num, den)) => Ok(Take::Fraction { num, den }),
        None => Err(MoveError::Fraction {
            found: text.chars().take(40).collect(),
        }),
    }
}

fn octal(v: &serde_yaml::Value) -> Result<Octal, MoveError> {
    let code = match v {
        serde_yaml::Value::String(s) => s.trim().to_string(),
        // `octal: 0.77` unquoted reads as a number; its text is the code.
        serde_yaml::Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let bad = || MoveError::OctalShape {
        found: code.chars().take(40).collect(),
    };
    let (before, after) = code.split_once('.').ok_or_else(bad)?;
    let digit = |c: char| c.to_digit(8).map(|d| d as u8);
    if before.len() != 1 || after.is_empty() || after.len() > 64 {
        return Err(bad());
    }
    let mut digits = Vec::with_capacity(after.len() + 1);
    for c in before.chars().chain(after.chars()) {
        digits.push(digit(c).ok_or_else(bad)?);
    }
    if digits[0] & 3 != 0 {
        return Err(MoveError::OctalZeroTake { found: code });
    }
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
    if digits.iter().all(|&d| d == 0) {
        return Err(MoveError::OctalEmpty { found: code });
    }
    Ok(Octal { code, digits })
}

/// `normal` or `misere` (also `misère`), checked where it is written
/// (default: normal; not an `Option`, whose errors serde cannot place).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct RawEnding(pub Ending);

impl Default for RawEnding {
    fn default() -> Self {
        RawEnding(Ending::Normal)
    }
}

/// An ending that is neither.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "ending: `{0}` is unknown, expected `normal` (whoever cannot move loses) or `misere` (whoever cannot move wins)"
)]
pub struct EndingError(String);

impl TryFrom<String> for RawEnding {
    type Error = EndingError;
    fn try_from(s: String) -> Result<Self, EndingError> {
        match s.as_str() {
            "normal" => Ok(RawEnding(Ending::Normal)),
            "misere" | "misère" => Ok(RawEnding(Ending::Misere)),
            _ => Err(EndingError(s)),
        }
    }
}

/// The rules of a described game: its moves and its ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    pub moves: Vec<Move>,
    pub ending: Ending,
}

impl Rules {
    /// Whether every move changes exactly one heap: a position is then the
    /// sum of its heaps (Sprague–Grundy).
    pub fn one_heap(&self) -> bool {
        self.moves.iter().all(Move::one_heap)
    }

    /// Whether a move may split a heap (an octal digit with bit 4): the
    /// number of heaps then changes during play.
    pub fn splits(&self) -> bool {
        self.moves
            .iter()
            .any(|m| matches!(m, Move::Octal(o) if o.digits.iter().any(|d| d & 4 != 0)))
    }

    /// Whether the order of the heaps matters (staircase moves).
    pub fn ordered(&self) -> bool {
        self.moves.iter().any(|m| matches!(m, Move::Staircase))
    }

    /// The parameters the moves use, in order of first use.
    pub fn parameters(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for p in self.moves.iter().filter_map(Move::parameter) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// Why these moves cannot be played together, if they cannot.
    pub fn conflict(&self) -> Option<&'static str> {
        if self.moves.is_empty() {
            return Some("a game needs at least one move");
        }
        if self.ordered() && self.splits() {
            return Some(
                "staircase moves and octal moves that split a heap cannot be combined: a heap split in two has no step of its own",
            );
        }
        None
    }

    /// The rules with every parameter given its value (`values[i]` for
    /// `names[i]`); `None` when one is missing.
    pub fn bind(&self, names: &[String], values: &[u64]) -> Option<super::bound::Bound> {
        let value = |a: &Amount| -> Option<u64> {
            match a {
                Amount::Number(n) => Some(*n),
                Amount::Parameter(p) => names
                    .iter()
                    .position(|n| n == p)
                    .and_then(|i| values.get(i).copied()),
            }
        };
        let mut bound = super::bound::Bound {
            ending: self.ending,
            take_any: false,
            sets: Vec::new(),
            up_to: 0,
            fraction: None,
            octal: Vec::new(),
            moore: 0,
            wythoff: false,
            staircase: false,
        };
        for m in &self.moves {
            match m {
                Move::Take(Take::Any) => bound.take_any = true,
                Move::Take(Take::Set(s)) => bound.sets.extend(s),
                Move::Take(Take::UpTo(a)) => bound.up_to = bound.up_to.max(value(a)?),
                Move::Take(Take::Fraction { num, den }) => {
                    // Two fractions: the larger allows every move of the other.
                    let better = match bound.fraction {
                        Some((n, d)) => {
                            u128::from(*num) * u128::from(d) > u128::from(n) * u128::from(*den)
                        }
                        None => true,
                    };
                    if better {
                        bound.fraction = Some((*num, *den));
                    }
                }
                Move::Octal(o) => {
                    if bound.octal.len() < o.digits.len() {
                        bound.octal.resize(o.digits.len(), 0);
                    }
                    for (k, d) in o.digits.iter().enumerate() {
                        bound.octal[k] |= d;
                    }
                }
                Move::Heaps(a) => bound.moore = bound.moore.max(value(a)?),
                Move::Wythoff => bound.wythoff = true,
                Move::Staircase => bound.staircase = true,
            }
        }
        bound.sets.sort_unstable();
        bound.sets.dedup();
        Some(bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_shown_in_flow_style() {
        let v: serde_yaml::Value =
            serde_yaml::from_str("{take: [1, 3, -2], max: k, w: \"a b\"}").expect("yaml");
        assert_eq!(shown(&v), "`{take: [1, 3, -2], max: k, w: a b}`");
    }

    fn mv(yaml: &str) -> Result<Move, String> {
        let v: serde_yaml::Value = serde_yaml::from_str(yaml).expect("YAML");
        Move::try_from(v).map_err(|e| e.to_string())
    }

    #[test]
    fn every_word_of_the_vocabulary_reads() {
        assert_eq!(mv("{take: any}"), Ok(Move::Take(Take::Any)));
        assert_eq!(
            mv("{take: [4, 1, 3, 1]}"),
            Ok(Move::Take(Take::Set(vec![1, 3, 4])))
        );
        assert_eq!(
            mv("{take: {max: 3}}"),
            Ok(Move::Take(Take::UpTo(Amount::Number(3))))
        );
        assert_eq!(
            mv("{take: {max: k}}"),
            Ok(Move::Take(Take::UpTo(Amount::Parameter("k".into()))))
        );
        assert_eq!(
            mv("{take: {fraction: 1/2}}"),
            Ok(Move::Take(Take::Fraction { num: 1, den: 2 }))
        );
        assert_eq!(mv("{heaps: 2}"), Ok(Move::Heaps(Amount::Number(2))));
        assert_eq!(mv("wythoff"), Ok(Move::Wythoff));
        assert_eq!(mv("staircase"), Ok(Move::Staircase));
        let Ok(Move::Octal(o)) = mv("{octal: \"0.137\"}") else {
            panic!("octal");
        };
        assert_eq!(o.digits, vec![0, 1, 3, 7]);
        assert_eq!(o.largest_take(), 3);
        let Ok(Move::Octal(o)) = mv("{octal: 0.07}") else {
            panic!("an unquoted code reads too");
        };
        assert_eq!(o.digits, vec![0, 0, 7]);
    }

    #[test]
    fn games_that_need_not_end_and_unknown_words_are_refused_with_why() {
        for (yaml, why) in [
            ("{take: [0, 1]}", "need not end"),
            ("{take: 0}", "need not end"),
            ("{take: {max: 0}}", "allows no move"),
            ("{octal: \"2.7\"}", "need not end"),
            ("{octal: \"0.8\"}", "not an octal code"),
            ("{octal: \"0.00\"}", "allows no move"),
            ("{take: {fraction: 3/2}}", "0 < A ≤ B"),
            ("{take: some}", "is not any"),
            ("{jump: 2}", "unknown move"),
            ("wythof", "unknown move"),
            ("{heaps: \"two words\"}", "neither a number"),
        ] {
            let e = mv(yaml).expect_err(yaml);
            assert!(e.contains(why), "{yaml}: {e}");
        }
    }

    #[test]
    fn a_missing_parameter_binds_nothing() {
        let moves: Vec<Move> = serde_yaml::from_str("[{take: {max: k}}]").expect("moves");
        let rules = Rules {
            moves,
            ending: Ending::Normal,
        };
        assert_eq!(rules.parameters(), vec!["k"]);
        assert!(rules.bind(&[], &[]).is_none());
    }
}
