//! The `game:` section as serde reads it, and its checks: each value is
//! checked where it is read (so serde gives the line and column of the
//! value), and what needs several keys at once when the section is whole.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Deserialize;

use super::{GameError, GameSpec, Position, Question};
use crate::catalog::format::{Bound, Framing};
use crate::games::described::rules::{RawEnding, is_parameter_name, shown};
use crate::games::described::{Amount, Move, Rules, Take};

/// The largest heap and the most heaps or cases a description may allow:
/// sizes the judge's arithmetic and the input parser are sure of.
const MAX_TOKENS: u64 = 1_000_000_000_000_000_000;
const MAX_COUNT: u64 = 1_000_000;

/// The section as read. Optional keys are defaults rather than `Option`s:
/// serde places an error inside an `Option` at the section's start, not
/// at the value.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGame {
    #[serde(default)]
    heaps: Given<Keyed<0>>,
    #[serde(default)]
    tokens: Given<Keyed<1>>,
    #[serde(default)]
    heap: Given<Keyed<2>>,
    #[serde(default)]
    parameters: serde_yaml::Mapping,
    moves: Vec<Move>,
    #[serde(default)]
    ending: RawEnding,
    question: RawQuestion,
    #[serde(default)]
    cases: Given<RawCases>,
    #[serde(default)]
    list: Given<RawList>,
}

/// An optional key: `Given(None)` when absent.
#[derive(Debug)]
struct Given<T>(Option<T>);

impl<T> Default for Given<T> {
    fn default() -> Self {
        Given(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Given<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|t| Given(Some(t)))
    }
}

/// `[LO, HI]`, or one number for both.
#[derive(Debug, Clone, Copy)]
struct RawRange(u64, u64);

/// The keys whose value is a range, by number (`Keyed<K>`).
const RANGE_KEYS: [&str; 3] = ["heaps", "tokens", "heap"];

/// A range under key `RANGE_KEYS[K]`: its refusal names the key, which
/// the spec's reader uses to place it.
#[derive(Debug, Clone, Copy)]
struct Keyed<const K: usize>(RawRange);

impl<'de, const K: usize> Deserialize<'de> for Keyed<K> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_yaml::Value::deserialize(d)?;
        range(&v).map(Keyed).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{}: expected a range [LO, HI] of whole numbers (or one number), found {}",
                RANGE_KEYS[K],
                shown(&v)
            ))
        })
    }
}

fn range(v: &serde_yaml::Value) -> Option<RawRange> {
    if let Some(n) = v.as_u64() {
        return Some(RawRange(n, n));
    }
    match v.as_sequence()?.as_slice() {
        [a, b] => Some(RawRange(a.as_u64()?, b.as_u64()?)),
        _ => None,
    }
}

#[derive(Debug)]
struct RawQuestion(Question);

const QUESTION_HELP: &str = "{winner: [WORD_IF_THE_FIRST_PLAYER_WINS, WORD_IF_NOT]}, {move: WORD_IF_NO_MOVE_WINS}, count, or play";

impl<'de> Deserialize<'de> for RawQuestion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = serde_yaml::Value::deserialize(d)?;
        let word = |w: &serde_yaml::Value| -> Result<String, D::Error> {
            match w.as_str() {
                Some(s) if !s.is_empty() && s.len() <= 64 && !s.contains(char::is_whitespace) => {
                    Ok(s.to_string())
                }
                _ => Err(D::Error::custom(format!(
                    "question: an answer word is one token of 1 to 64 characters without spaces, found {}",
                    shown(w)
                ))),
            }
        };
        match &v {
            serde_yaml::Value::String(s) if s == "count" => {
                return Ok(RawQuestion(Question::Count));
            }
            serde_yaml::Value::String(s) if s == "play" => return Ok(RawQuestion(Question::Play)),
            serde_yaml::Value::Mapping(m) if m.len() == 1 => {
                if let Some((k, inner)) = m.iter().next() {
                    match (k.as_str(), inner.as_sequence().map(Vec::as_slice)) {
                        (Some("winner"), Some([w, l])) => {
                            let (win, lose) = (word(w)?, word(l)?);
                            if win == lose {
                                return Err(D::Error::custom(format!(
                                    "question: the two words must differ (both `{win}`)"
                                )));
                            }
                            return Ok(RawQuestion(Question::Winner { win, lose }));
                        }
                        (Some("move"), _) => {
                            return Ok(RawQuestion(Question::Move { lose: word(inner)? }));
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        Err(D::Error::custom(format!(
            "question: {} is unknown, expected {QUESTION_HELP}",
            shown(&v)
        )))
    }
}

#[derive(Debug)]
struct RawCases(Framing);

const CASES_HELP: &str =
    "one, [LO, HI] (a first line T, then T cases), {until: end, max: N} or {until: zero}";

impl<'de> Deserialize<'de> for RawCases {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = serde_yaml::Value::deserialize(d)?;
        if v.as_str() == Some("one") {
            return Ok(RawCases(Framing::Single));
        }
        if let Some(RawRange(lo, hi)) = range(&v) {
            if lo == 0 || lo > hi || hi > MAX_COUNT {
                return Err(D::Error::custom(format!(
                    "cases: [{lo}, {hi}]: the number of cases is a range within 1..={MAX_COUNT}"
                )));
            }
            return Ok(RawCases(Framing::Counted(Bound::new(lo, hi))));
        }
        if let Some(m) = v.as_mapping() {
            let until = m.get("until").and_then(|u| u.as_str());
            let max = m.get("max").map(|x| x.as_u64());
            let known = m
                .keys()
                .all(|k| matches!(k.as_str(), Some("until") | Some("max")));
            match (until, max) {
                (Some("end"), Some(Some(max))) if known && (1..=MAX_COUNT).contains(&max) => {
                    return Ok(RawCases(Framing::UntilEof { max }));
                }
                (Some("zero"), None) if known => return Ok(RawCases(Framing::UntilZero)),
                _ => {}
            }
        }
        Err(D::Error::custom(format!(
            "cases: {} is unknown, expected {CASES_HELP} (with max at most {MAX_COUNT})",
            shown(&v)
        )))
    }
}

/// `same-line` or `next-line`, checked where it is written.
#[derive(Debug, Deserialize)]
#[serde(try_from = "String")]
struct RawList(bool);

/// A `list:` that is neither.
#[derive(Debug, thiserror::Error)]
#[error(
    "list: `{0}` is unknown, expected `same-line` (the heaps follow n on its line) or `next-line`"
)]
struct ListError(String);

impl TryFrom<String> for RawList {
    type Error = ListError;
    fn try_from(s: String) -> Result<Self, ListError> {
        match s.as_str() {
            "same-line" => Ok(RawList(true)),
            "next-line" => Ok(RawList(false)),
            _ => Err(ListError(s)),
        }
    }
}

fn bound(key: &str, r: RawRange, max: u64) -> Result<Bound, GameError> {
    let RawRange(lo, hi) = r;
    if lo > hi {
        return Err(GameError::EmptyRange {
            key: key.to_string(),
            lo,
            hi,
        });
    }
    if hi > max {
        return Err(GameError::TooLarge {
            key: key.to_string(),
            max,
            found: hi,
        });
    }
    Ok(Bound::new(lo, hi))
}

impl TryFrom<RawGame> for GameSpec {
    type Error = GameError;
    fn try_from(raw: RawGame) -> Result<GameSpec, GameError> {
        let position = match (
            raw.heaps.0.map(|k| k.0),
            raw.tokens.0.map(|k| k.0),
            raw.heap.0.map(|k| k.0),
        ) {
            (Some(h), Some(t), None) => {
                let count = bound("heaps", h, MAX_COUNT)?;
                if count.min == 0 {
                    return Err(GameError::NoHeaps { lo: count.min });
                }
                Position::Heaps {
                    count,
                    size: bound("tokens", t, MAX_TOKENS)?,
                }
            }
            (None, None, Some(n)) => Position::Heap {
                size: bound("heap", n, MAX_TOKENS)?,
            },
            _ => return Err(GameError::Positions),
        };
        let parameters = parameters(&raw.parameters)?;
        let rules = Rules {
            moves: raw.moves,
            ending: raw.ending.0,
        };
        if let Some(why) = rules.conflict() {
            return Err(GameError::Moves(why));
        }
        check_amounts(&rules, &parameters)?;
        let question = raw.question.0;
        if matches!(
            question,
            Question::Move { .. } | Question::Count | Question::Play
        ) && !rules.one_heap()
        {
            return Err(GameError::Question(
                "a move, a count of moves or play needs moves that each change one heap (take or octal); `heaps`, `wythoff` and `staircase` change several".into(),
            ));
        }
        let cases = match (&question, raw.cases.0) {
            (Question::Play, None) => Framing::Counted(Bound::new(1, 100)),
            (Question::Play, Some(RawCases(Framing::Counted(b)))) => Framing::Counted(b),
            (Question::Play, Some(_)) => {
                return Err(GameError::Cases(
                    "a played problem's input is [LO, HI] games (a first line T, then the positions)".into(),
                ));
            }
            (_, c) => c.map_or(Framing::Single, |c| c.0),
        };
        if question == Question::Play && !parameters.is_empty() {
            return Err(GameError::Question(
                "play: a played game's positions are lines of heaps only; it takes no parameters"
                    .into(),
            ));
        }
        if question == Question::Play && !matches!(position, Position::Heaps { .. }) {
            return Err(GameError::Question(
                "play: a played game's positions are lists of heaps (`heaps` and `tokens`)".into(),
            ));
        }
        if cases == Framing::UntilZero && !matches!(position, Position::Heaps { .. }) {
            return Err(GameError::Cases(
                "until zero: the cases end with a line `0` where the number of heaps would be, so the positions must be lists of heaps".into(),
            ));
        }
        let same_line = match (raw.list.0, position) {
            (Some(l), Position::Heaps { .. }) => l.0,
            (Some(_), Position::Heap { .. }) => {
                return Err(GameError::List(
                    "one heap per case has no list of heaps to place".into(),
                ));
            }
            (None, Position::Heaps { .. }) => question == Question::Play,
            (None, Position::Heap { .. }) => true,
        };
        Ok(GameSpec {
            rules,
            position,
            parameters,
            question,
            cases,
            same_line,
            analyses: Mutex::new(HashMap::new()),
        })
    }
}

/// `parameters:` in order; names are not `n` or `T`, which the input
/// format uses.
fn parameters(m: &serde_yaml::Mapping) -> Result<Vec<(String, Bound)>, GameError> {
    let mut out: Vec<(String, Bound)> = Vec::with_capacity(m.len());
    for (k, v) in m {
        let name = k.as_str().unwrap_or_default().to_string();
        let refuse = |why: String| GameError::Parameter {
            name: name.clone(),
            why,
        };
        if !is_parameter_name(&name) {
            return Err(refuse(
                "a parameter name is a letter, then letters, digits or `_`".into(),
            ));
        }
        if matches!(name.as_str(), "n" | "T") {
            return Err(refuse(format!(
                "`{name}` is the input's own name ({}); choose another",
                if name == "n" {
                    "the number of heaps, or the heap"
                } else {
                    "the number of cases"
                }
            )));
        }
        let Some(r) = range(v) else {
            return Err(refuse(format!(
                "expected a range [LO, HI] of whole numbers, found {}",
                shown(v)
            )));
        };
        let b = bound(&format!("parameters.{name}"), r, MAX_TOKENS)?;
        out.push((name, b));
    }
    Ok(out)
}

/// Every parameter a move uses is declared, and none lets a move take
/// nothing (a game that need not end).
fn check_amounts(rules: &Rules, parameters: &[(String, Bound)]) -> Result<(), GameError> {
    let known = || {
        if parameters.is_empty() {
            "the game declares no `parameters`".to_string()
        } else {
            let names: Vec<&str> = parameters.iter().map(|(n, _)| n.as_str()).collect();
            format!("parameters: {}", names.join(", "))
        }
    };
    for (index, m) in rules.moves.iter().enumerate() {
        let Some(name) = m.parameter() else { continue };
        let Some((_, b)) = parameters.iter().find(|(n, _)| n == name) else {
            return Err(GameError::UnknownParameter {
                index,
                name: name.to_string(),
                known: known(),
            });
        };
        if b.min == 0 {
            let what = match m {
                Move::Take(Take::UpTo(Amount::Parameter(_))) => {
                    "`take: {max: …}` would allow no move"
                }
                _ => "`heaps: …` would allow no move",
            };
            return Err(GameError::Parameter {
                name: name.to_string(),
                why: format!("at 0, {what}; its range must start at 1"),
            });
        }
    }
    Ok(())
}
