//! Catalog entry for `nim-winning-move`: `n` (1 ≤ n ≤ 10^5) then `n` piles
//! 1 ≤ a_i ≤ 10^9; print `lose`, or a move `i x` (take from pile `i`, 1-based,
//! leaving `x < a_i`) after which the opponent loses. Any winning move is right.
//!
//! Also home of the normal-Nim search oracle shared with `nim-count-moves`.

use super::kit::multisets;
use super::piles;
use super::text_layout::{Layout, read_layout, render};
use super::{Coded, Entry, Family, OracleCase, Rejection};
use crate::games::nim::NimOracle;
use crate::generate::{GenError, Params, Rng};

pub const ENTRY: Entry = Entry {
    id: "nim-winning-move",
    families: &[
        Family {
            name: "nim-winning-move-piles",
            about: "one Nim position: constructed losing (nim-sum 0) or random winning piles",
            generate: random_position,
        },
        Family {
            name: "nim-winning-move-traps",
            about: "winning Nim positions where one pile is the only winning move, or the largest pile is not one",
            generate: trap_position,
        },
        Family {
            name: "nim-winning-move-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::large_piles(), params, rng)
            },
        },
    ],
    coded: Some(Coded {
        format: super::format::large_piles,
        oracle_cases,
        accepts,
    }),
};

const MAX_N: u64 = 100_000;
const MAX_PILE: u64 = 1_000_000_000;

// ---------------------------------------------------------------------------
// Normal Nim decided by search (games::nim).

/// Total stones up to which the search oracle is asked; beyond it the search
/// would take too long, and the catalog never needs it.
pub(crate) const ORACLE_STONES: u64 = 60;

/// A deterministic reordering, so that oracle inputs are not all sorted and a
/// pile's number matters.
pub(crate) fn scramble(mut piles: Vec<u64>, case: usize) -> Vec<u64> {
    match case % 3 {
        0 => {}
        1 => piles.reverse(),
        _ if !piles.is_empty() => piles.rotate_left(1),
        _ => {}
    }
    piles
}

// ---------------------------------------------------------------------------
// Input format.

fn format_input(piles: &[u64]) -> String {
    format!("{}\n{}\n", piles.len(), piles::join(piles))
}

fn layout_input(piles: &[u64], layout: Layout, rng: &mut Rng) -> String {
    let lines = [piles.len().to_string(), piles::join(piles)];
    render(&lines, layout, rng)
}

/// Why an oracle case's input is not a `nim-winning-move` position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("`{text}` is not a non-negative integer")]
    NotANumber {
        text: String,
        source: std::num::ParseIntError,
    },
    #[error("empty input")]
    Empty,
    #[error("n = {n} is outside 1..={MAX_N}")]
    PileCount { n: u64 },
    #[error("{n} piles announced, {given} given")]
    Short { n: u64, given: usize },
    #[error("extra tokens after the piles")]
    Extra,
    #[error("pile {pile} is outside 1..={MAX_PILE}")]
    PileSize { pile: u64 },
}

/// The piles of an input, checked against the constraints.
pub(crate) fn parse_input(input: &str) -> Result<Vec<u64>, PositionError> {
    let mut tokens = input.split_ascii_whitespace().map(|t| {
        t.parse::<u64>()
            .map_err(|source| PositionError::NotANumber {
                text: t.to_string(),
                source,
            })
    });
    let n = tokens.next().ok_or(PositionError::Empty)??;
    if !(1..=MAX_N).contains(&n) {
        return Err(PositionError::PileCount { n });
    }
    let piles: Vec<u64> = tokens.by_ref().take(n as usize).collect::<Result<_, _>>()?;
    if piles.len() as u64 != n {
        return Err(PositionError::Short {
            n,
            given: piles.len(),
        });
    }
    if tokens.next().is_some() {
        return Err(PositionError::Extra);
    }
    if let Some(&pile) = piles.iter().find(|a| !(1..=MAX_PILE).contains(*a)) {
        return Err(PositionError::PileSize { pile });
    }
    Ok(piles)
}

// ---------------------------------------------------------------------------
// Generators.

/// The `n` knob (default 1..10), within the constraint.
fn pile_range(params: &Params) -> Result<(u64, u64), GenError> {
    let (lo, hi) = params.range_or("n", (1, 10))?;
    if hi > MAX_N || lo == 0 {
        return Err(GenError::Impossible(format!(
            "n must stay within 1..={MAX_N}"
        )));
    }
    Ok((lo, hi))
}

fn pile_bounds(params: &Params) -> Result<(u64, u64), GenError> {
    let min = params.u64_or("min", 1)?.max(1);
    let max = params.u64_or("max", MAX_PILE)?;
    if max > MAX_PILE || min > max {
        return Err(GenError::Impossible(format!(
            "piles must satisfy 1 <= min <= max <= {MAX_PILE}, got {min}..={max}"
        )));
    }
    Ok((min, max))
}

/// `nim-winning-move-piles`: knobs `n` (range, default 1..10), `min`, `max`
/// (pile sizes, default 1..10^9), `losing` (chance of a nim-sum-0 position,
/// default 0.5; needs at least two piles), `layout` (see [`read_layout`]).
fn random_position(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["n", "min", "max", "losing", "layout"])?;
    let layout = read_layout(params)?;
    let (min, max) = pile_bounds(params)?;
    let losing = params.f64_or("losing", 0.5)?;
    let (lo, hi) = pile_range(params)?;
    if hi < 2 && losing > 0.0 {
        return Err(GenError::Impossible(
            "a single pile always wins: allow n >= 2 or set losing: 0".into(),
        ));
    }
    let want_losing = rng.chance(losing);
    let n = rng.range(if want_losing { lo.max(2) } else { lo }, hi) as usize;
    let piles = if want_losing {
        piles::xor_zero(rng, n, min, max).ok_or_else(|| {
            GenError::Impossible(format!(
                "no {n} piles in {min}..={max} with nim-sum 0 found"
            ))
        })?
    } else {
        piles::xor_nonzero(rng, n, min, max).ok_or_else(|| {
            GenError::Impossible(format!(
                "{n} piles all equal to {min} always have nim-sum 0"
            ))
        })?
    };
    Ok(layout_input(&piles, layout, rng))
}

/// `nim-winning-move-traps`: knobs `n` (at least 2), `max` (at least 2),
/// `kind`: `unique` (only one pile can make the winning move; `at` puts it
/// `first`, `last` or at a `random` place), `not-largest` (the largest pile
/// cannot make a winning move) or `equal` (every pile holds `max`: losing
/// exactly when `n` is even).
fn trap_position(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["n", "max", "kind", "at"])?;
    let max = params.u64_or("max", MAX_PILE)?;
    if !(2..=MAX_PILE).contains(&max) {
        return Err(GenError::Impossible(format!(
            "max must be in 4..={MAX_PILE}"
        )));
    }
    let (lo, hi) = pile_range(params)?;
    if hi < 2 {
        return Err(GenError::Impossible("traps need at least two piles".into()));
    }
    let n = rng.range(lo.max(2), hi) as usize;
    let piles = match params.str_or("kind", "unique")? {
        "unique" => unique_winner(rng, n, max, params.str_or("at", "random")?)?,
        "not-largest" => largest_cannot_win(rng, n, max)?,
        "equal" => vec![max; n],
        other => {
            return Err(GenError::Param {
                key: "kind".into(),
                expected: "unique, not-largest or equal",
                found: other.into(),
            });
        }
    };
    Ok(format_input(&piles))
}

/// The highest power of two not above `max`.
fn top_power(max: u64) -> u64 {
    1 << (63 - max.leading_zeros())
}

/// One pile holds the only copy of the nim-sum's top bit, so it is the only
/// pile with a winning move.
fn unique_winner(rng: &mut Rng, n: usize, max: u64, at: &str) -> Result<Vec<u64>, GenError> {
    let high = top_power(max);
    let mut piles = piles::random(rng, n - 1, 1, high - 1);
    let special = rng.range(high, max.min(2 * high - 1));
    let index = match at {
        "first" => 0,
        "last" => n - 1,
        "random" => rng.range(0, n as u64 - 1) as usize,
        other => {
            return Err(GenError::Param {
                key: "at".into(),
                expected: "first, last or random",
                found: other.into(),
            });
        }
    };
    piles.insert(index, special);
    Ok(piles)
}

/// Piles where taking from the largest pile cannot win: two piles share the
/// top bit, and the largest lacks the nim-sum's top bit.
fn largest_cannot_win(rng: &mut Rng, n: usize, max: u64) -> Result<Vec<u64>, GenError> {
    let high = top_power(max);
    for _ in 0..1000 {
        let mut piles = piles::random(rng, n - 2, 1, high - 1);
        piles.push(rng.range(high, max.min(2 * high - 1)));
        piles.push(rng.range(high, max.min(2 * high - 1)));
        let sum = piles.iter().fold(0, |a, b| a ^ b);
        let largest = piles.iter().copied().max().unwrap_or(0);
        if sum != 0 && largest ^ sum > largest {
            rng.shuffle(&mut piles);
            return Ok(piles);
        }
    }
    Err(GenError::Impossible(format!(
        "no {n} piles up to {max} found where the largest pile cannot win"
    )))
}

// ---------------------------------------------------------------------------
// Oracle cases and acceptance.

/// Every multiset of 1–3 piles up to 7 and of 4 piles up to 5, in varied
/// orders, each as its own input; the expected output shows one winning move.
fn oracle_cases() -> Vec<OracleCase> {
    let mut oracle = NimOracle::normal();
    let positions = (1..=3).flat_map(|n| multisets(n, 7)).chain(multisets(4, 5));
    positions
        .enumerate()
        .map(|(c, p)| {
            let piles = scramble(p, c);
            let expected = match oracle.winning_moves(&piles).first() {
                None => "lose\n".to_string(),
                Some(&(i, x)) => format!("{} {x}\n", i + 1),
            };
            OracleCase {
                input: format_input(&piles),
                expected,
            }
        })
        .collect()
}

/// Why an output is not a right answer to a `nim-winning-move` case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The case itself is broken: the catalog's fault, not the output's.
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("the position has more than {ORACLE_STONES} stones, too many for the search oracle")]
    TooLarge,
    #[error("printed `lose`, but the position is winning")]
    LoseWhenWinning,
    #[error("pile number `{text}` is not valid")]
    BadPile {
        text: String,
        source: std::num::ParseIntError,
    },
    #[error("stones left `{text}` is not valid")]
    BadStones {
        text: String,
        source: std::num::ParseIntError,
    },
    #[error("pile {pile} does not exist (1..={piles})")]
    NoSuchPile { pile: usize, piles: usize },
    #[error("pile {pile} has {has} stones; cannot leave {left}")]
    CannotLeave { pile: usize, has: u64, left: u64 },
    #[error("after `{pile} {left}` the opponent still wins")]
    OpponentWins { pile: usize, left: u64 },
    #[error("expected `lose` or `i x`, got `{output}`")]
    Unexpected { output: String },
}

/// Right when the output is `lose` in a losing position, or a legal move
/// `i x` after which the search oracle finds the position losing.
fn accepts(case: &OracleCase, output: &str) -> Result<(), Rejection> {
    judge_move(case, output).map_err(Rejection::Move)
}

fn judge_move(case: &OracleCase, output: &str) -> Result<(), MoveError> {
    let piles = parse_input(&case.input)?;
    if piles.iter().sum::<u64>() > ORACLE_STONES {
        return Err(MoveError::TooLarge);
    }
    let mut oracle = NimOracle::normal();
    let tokens: Vec<&str> = output.split_ascii_whitespace().collect();
    match tokens.as_slice() {
        ["lose"] if oracle.first_player_wins(&piles) => Err(MoveError::LoseWhenWinning),
        ["lose"] => Ok(()),
        [i, x] => {
            let pile: usize = i.parse().map_err(|source| MoveError::BadPile {
                text: i.to_string(),
                source,
            })?;
            let left: u64 = x.parse().map_err(|source| MoveError::BadStones {
                text: x.to_string(),
                source,
            })?;
            if !(1..=piles.len()).contains(&pile) {
                return Err(MoveError::NoSuchPile {
                    pile,
                    piles: piles.len(),
                });
            }
            let has = piles[pile - 1];
            if left >= has {
                return Err(MoveError::CannotLeave { pile, has, left });
            }
            let mut after = piles.clone();
            after[pile - 1] = left;
            if oracle.first_player_wins(&after) {
                return Err(MoveError::OpponentWins { pile, left });
            }
            Ok(())
        }
        _ => Err(MoveError::Unexpected {
            output: output.trim().to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).expect("test params")
    }

    #[test]
    fn search_finds_the_hand_checked_losing_positions() {
        let mut o = NimOracle::normal();
        // Equal pairs lose (mirror the opponent); 1 2 3 loses: every move
        // leaves two equal piles or a pair the opponent can equalise.
        for lose in [
            &[1, 1][..],
            &[3, 3],
            &[1, 2, 3],
            &[1, 4, 5],
            &[2, 4, 6],
            &[],
        ] {
            assert!(!o.first_player_wins(lose), "{lose:?}");
        }
        for win in [&[1][..], &[1, 2], &[1, 1, 1], &[2, 3, 4], &[7]] {
            assert!(o.first_player_wins(win), "{win:?}");
        }
        assert_eq!(o.winning_moves(&[3, 1, 1]), vec![(0, 0)]);
        assert_eq!(o.winning_moves(&[1, 2]), vec![(1, 1)]);
    }

    #[test]
    fn multisets_are_counted_right() {
        assert_eq!(multisets(3, 7).len(), 84);
        assert_eq!(
            multisets(2, 3),
            vec![
                vec![1, 1],
                vec![1, 2],
                vec![1, 3],
                vec![2, 2],
                vec![2, 3],
                vec![3, 3]
            ]
        );
    }

    #[test]
    fn families_respect_constraints_and_repeat() {
        let cases = [
            ("nim-winning-move-piles", "{}"),
            ("nim-winning-move-piles", "{n: [1, 100000], losing: 0.7}"),
            ("nim-winning-move-piles", "{n: [1, 30], layout: messy}"),
            ("nim-winning-move-traps", "{n: 100000, kind: equal}"),
            ("nim-winning-move-piles", "{n: 1, losing: 0}"),
            ("nim-winning-move-traps", "{n: [2, 50], at: last}"),
            (
                "nim-winning-move-traps",
                "{n: [2, 50], kind: not-largest, max: 1000}",
            ),
        ];
        for (name, yaml) in cases {
            let f = ENTRY
                .families
                .iter()
                .find(|f| f.name == name)
                .expect("family");
            for seed in 0..8 {
                let a = (f.generate)(&params(yaml), &mut Rng::new(seed)).expect("generates");
                let b = (f.generate)(&params(yaml), &mut Rng::new(seed)).expect("generates");
                assert_eq!(a, b);
                parse_input(&a).expect("within the constraints");
            }
        }
    }

    #[test]
    fn constructed_losing_positions_lose_by_search() {
        let mut o = NimOracle::normal();
        let p = params("{n: [2, 4], max: 7, losing: 1.0}");
        for seed in 0..40 {
            let piles =
                parse_input(&random_position(&p, &mut Rng::new(seed)).expect("ok")).expect("ok");
            assert!(!o.first_player_wins(&piles), "{piles:?}");
        }
        let p = params("{n: [1, 4], max: 7, losing: 0.0}");
        for seed in 0..40 {
            let piles =
                parse_input(&random_position(&p, &mut Rng::new(seed)).expect("ok")).expect("ok");
            assert!(o.first_player_wins(&piles), "{piles:?}");
        }
    }

    #[test]
    fn traps_have_the_promised_shape() {
        let mut o = NimOracle::normal();
        for seed in 0..30 {
            let p = params("{n: [2, 4], max: 7, at: last}");
            let piles =
                parse_input(&trap_position(&p, &mut Rng::new(seed)).expect("ok")).expect("ok");
            let moves = o.winning_moves(&piles);
            assert_eq!(moves.len(), 1, "{piles:?}");
            assert_eq!(moves[0].0, piles.len() - 1);

            let p = params("{n: [3, 4], max: 7, kind: not-largest}");
            let piles =
                parse_input(&trap_position(&p, &mut Rng::new(seed)).expect("ok")).expect("ok");
            let largest = piles.iter().copied().max().expect("piles");
            let moves = o.winning_moves(&piles);
            assert!(!moves.is_empty());
            assert!(moves.iter().all(|&(i, _)| piles[i] != largest), "{piles:?}");
        }
    }

    #[test]
    fn bad_knobs_are_errors() {
        let mut r = Rng::new(1);
        assert!(random_position(&params("{n: 1, losing: 1.0}"), &mut r).is_err());
        assert!(random_position(&params("{n: 100001}"), &mut r).is_err());
        assert!(random_position(&params("{max: 1000000001}"), &mut r).is_err());
        assert!(random_position(&params("{piles: 3}"), &mut r).is_err());
        assert!(trap_position(&params("{kind: odd}"), &mut r).is_err());
        assert!(trap_position(&params("{n: 1}"), &mut r).is_err());
        assert!(trap_position(&params("{n: 2, max: 2, kind: not-largest}"), &mut r).is_err());
    }

    #[test]
    fn oracle_cases_are_valid_and_accepted_by_their_own_answer() {
        let cases = oracle_cases();
        assert_eq!(cases.len(), 7 + 28 + 84 + 70);
        let losing = cases.iter().filter(|c| c.expected == "lose\n").count();
        assert!(losing > 10);
        for c in &cases {
            parse_input(&c.input).expect("valid input");
            accepts(c, &c.expected).expect("own answer");
        }
    }

    #[test]
    fn accepts_any_winning_move_and_nothing_else() {
        let case = OracleCase {
            input: "3\n1 2 4\n".into(),
            expected: "3 3\n".into(),
        };
        assert!(accepts(&case, "3 3").is_ok());
        assert!(accepts(&case, "lose").is_err());
        assert!(accepts(&case, "3 4").is_err());
        assert!(accepts(&case, "0 3").is_err());
        assert!(accepts(&case, "2 1").is_err());
        assert!(accepts(&case, "3 3 3").is_err());
        // 1 1 3 3 wins for nobody; 5 6 7: any of three moves wins.
        let lose = OracleCase {
            input: "4\n1 3 1 3\n".into(),
            expected: "lose\n".into(),
        };
        assert!(accepts(&lose, "lose\n").is_ok());
        assert!(accepts(&lose, "1 0").is_err());
        let many = OracleCase {
            input: "3\n5 6 7\n".into(),
            expected: "1 1\n".into(),
        };
        for out in ["1 1", "2 2", "3 3"] {
            assert!(accepts(&many, out).is_ok(), "{out}");
        }
    }

    #[test]
    fn rejections_name_the_fault() {
        let case = OracleCase {
            input: "3\n1 2 4\n".into(),
            expected: "3 3\n".into(),
        };
        let shown = |out: &str| accepts(&case, out).map_err(|e| e.to_string());
        for (out, why) in [
            ("lose", "printed `lose`, but the position is winning"),
            ("x 1", "pile number `x` is not valid"),
            ("1 -1", "stones left `-1` is not valid"),
            ("0 3", "pile 0 does not exist (1..=3)"),
            ("3 4", "pile 3 has 4 stones; cannot leave 4"),
            ("2 1", "after `2 1` the opponent still wins"),
            ("3 3 3", "expected `lose` or `i x`, got `3 3 3`"),
        ] {
            assert_eq!(shown(out), Err(why.to_string()), "{out}");
        }
        let broken = OracleCase {
            input: "2\n1\n".into(),
            expected: "lose\n".into(),
        };
        assert_eq!(
            accepts(&broken, "lose").map_err(|e| e.to_string()),
            Err("2 piles announced, 1 given".into())
        );
    }
}
