//! Catalog entry for `staircase-nim` (POJ 1704, Georgia and Bob): `T`
//! (1 ≤ T ≤ 20) cases, each `N` (1 ≤ N ≤ 1000) then N distinct cells
//! 1 ≤ P_i ≤ 10^4 in any order; per case `Georgia will win` or `Bob will win`.
//!
//! Positions are built from the gaps between neighbouring chessmen, so that
//! losing positions can be constructed: counted from the right, every other
//! gap (the one left of the last, third-last, … chessman) acts as a Nim pile.

use super::piles;
use super::text_layout::{Layout, read_layout, render};
use super::{Coded, Entry, Family, OracleCase, tokens_match};
use crate::games::staircase::Oracle;
use crate::generate::{GenError, Params, Rng};

pub const ENTRY: Entry = Entry {
    id: "staircase-nim",
    families: &[
        Family {
            name: "staircase-nim-cases",
            about: "Georgia and Bob boards: constructed losing ones and winning ones, cells in any order",
            generate: random_cases,
        },
        Family {
            name: "staircase-nim-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::staircase_nim(), params, rng)
            },
        },
    ],
    coded: Some(Coded {
        format: super::format::staircase_nim,
        oracle_cases,
        accepts: tokens_match,
    }),
};

const MAX_T: u64 = 20;
const MAX_N: u64 = 1000;
const MAX_CELL: u64 = 10_000;

const GEORGIA: &str = "Georgia will win";
const BOB: &str = "Bob will win";

fn format_cases(cases: &[Vec<u64>], layout: Layout, rng: &mut Rng) -> String {
    let mut lines = vec![cases.len().to_string()];
    for cells in cases {
        lines.push(cells.len().to_string());
        lines.push(piles::join(cells));
    }
    render(&lines, layout, rng)
}

/// The cells of an `n`-chessman board whose gaps are `gaps` (left to right:
/// the gap before the first chessman, then between neighbours).
fn cells_from_gaps(gaps: &[u64]) -> Vec<u64> {
    let mut cell = 0;
    gaps.iter()
        .map(|g| {
            cell += g + 1;
            cell
        })
        .collect()
}

/// Whether gap `j` of `n` counts as a Nim pile: the gaps left of the last,
/// third-last, … chessman.
fn is_pile_gap(j: usize, n: usize) -> bool {
    (n - 1 - j).is_multiple_of(2)
}

/// Free gaps and pile gaps spread over at most `slack` empty cells, the
/// pile gaps drawn by `piles` from a cap; `None` when they do not fit.
fn spread(
    rng: &mut Rng,
    n: usize,
    slack: u64,
    pile_gaps: impl Fn(&mut Rng, usize, u64) -> Option<Vec<u64>>,
) -> Option<Vec<u64>> {
    let pile_count = n.div_ceil(2);
    let free_count = (n - pile_count).max(1) as u64;
    // Sometimes thin, sometimes wide.
    let pile_cap = rng.range(0, slack / (2 * pile_count as u64));
    let free_cap = rng.range(0, slack / (2 * free_count));
    let mut pile_gaps = pile_gaps(rng, pile_count, pile_cap)?.into_iter();
    let gaps: Vec<u64> = (0..n)
        .map(|j| match is_pile_gap(j, n) {
            true => pile_gaps.next().unwrap_or(0),
            false => rng.range(0, free_cap),
        })
        .collect();
    (gaps.iter().sum::<u64>() <= slack).then_some(gaps)
}

fn losing_gaps(rng: &mut Rng, n: usize, slack: u64) -> Option<Vec<u64>> {
    (0..100).find_map(|_| spread(rng, n, slack, |r, m, cap| piles::xor_zero(r, m, 0, cap)))
}

fn random_winning_gaps(rng: &mut Rng, n: usize, slack: u64) -> Option<Vec<u64>> {
    (0..100).find_map(|_| {
        let gaps = spread(rng, n, slack, |r, m, cap| Some(piles::random(r, m, 0, cap)))?;
        let sum = (0..n)
            .filter(|&j| is_pile_gap(j, n))
            .fold(0, |x, j| x ^ gaps[j]);
        (sum != 0).then_some(gaps)
    })
}

/// A losing board with one pile gap widened by a cell: winning, and one move
/// away from losing.
fn near_miss_gaps(rng: &mut Rng, n: usize, slack: u64) -> Option<Vec<u64>> {
    let mut gaps = losing_gaps(rng, n, slack.checked_sub(1)?)?;
    let piles: Vec<usize> = (0..n).filter(|&j| is_pile_gap(j, n)).collect();
    let j = *rng.pick(&piles)?;
    gaps[j] += 1;
    Some(gaps)
}

/// The gaps of one board of `n` chessmen within `1..=max`: the pile gaps
/// have nim-sum zero when `losing`, otherwise not.
fn board_gaps(rng: &mut Rng, n: usize, max: u64, losing: bool) -> Result<Vec<u64>, GenError> {
    let slack = max - n as u64;
    let gaps = if losing {
        losing_gaps(rng, n, slack)
    } else if rng.chance(0.5) {
        random_winning_gaps(rng, n, slack).or_else(|| near_miss_gaps(rng, n, slack))
    } else {
        near_miss_gaps(rng, n, slack)
    };
    gaps.ok_or_else(|| {
        GenError::Impossible(format!(
            "no {} board of {n} chessmen within 1..={max} found",
            if losing { "losing" } else { "winning" }
        ))
    })
}

/// `staircase-nim-cases`: knobs `t` (cases, default 1..20), `n` (chessmen,
/// default 1..10), `max` (largest cell, default 10^4), `losing` (chance of a
/// losing board, default 0.5), `order` (`shuffled` default, `sorted`,
/// `reversed`), `layout`.
fn random_cases(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["t", "n", "max", "losing", "order", "layout"])?;
    let t = params.range_or("t", (1, MAX_T))?;
    let n = params.range_or("n", (1, 10))?;
    let max = params.u64_or("max", MAX_CELL)?;
    let losing = params.f64_or("losing", 0.5)?;
    let order = params.str_or("order", "shuffled")?;
    let layout = read_layout(params)?;
    if t.0 == 0 || t.1 > MAX_T || n.0 == 0 || n.1 > MAX_N || max > MAX_CELL {
        return Err(GenError::Impossible(format!(
            "need 1 <= t <= {MAX_T}, 1 <= n <= {MAX_N}, max <= {MAX_CELL}"
        )));
    }
    if max < n.1 || (max == n.1 && losing < 1.0) {
        return Err(GenError::Impossible(format!(
            "{} chessmen need more than {max} cells to make winning boards",
            n.1
        )));
    }
    if !["shuffled", "sorted", "reversed"].contains(&order) {
        return Err(GenError::Param {
            key: "order".into(),
            expected: "shuffled, sorted or reversed",
            found: order.into(),
        });
    }
    let count = rng.range(t.0, t.1);
    let mut cases = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let size = rng.range(n.0, n.1) as usize;
        let lose = rng.chance(losing);
        let mut cells = cells_from_gaps(&board_gaps(rng, size, max, lose)?);
        match order {
            "shuffled" => rng.shuffle(&mut cells),
            "reversed" => cells.reverse(),
            _ => {}
        }
        cases.push(cells);
    }
    Ok(format_cases(&cases, layout, rng))
}

/// Every non-empty set of chessmen on cells 1..=10, in varied orders, twenty
/// boards per input.
fn oracle_cases() -> Vec<OracleCase> {
    let mut oracle = Oracle::new();
    let mut rng = Rng::new(1704);
    let boards: Vec<Vec<u64>> = (1u32..1 << 10)
        .map(|mask| (1..=10).filter(|c| mask & (1 << (c - 1)) != 0).collect())
        .collect();
    let layouts = [Layout::Plain, Layout::Messy, Layout::NoFinalNewline];
    boards
        .chunks(MAX_T as usize)
        .enumerate()
        .map(|(i, chunk)| {
            let cases: Vec<Vec<u64>> = chunk
                .iter()
                .enumerate()
                .map(|(j, b)| {
                    let mut b = b.clone();
                    match (i + j) % 3 {
                        0 => {}
                        1 => b.reverse(),
                        _ => rng.shuffle(&mut b),
                    }
                    b
                })
                .collect();
            let expected = cases
                .iter()
                .map(|b| {
                    let cells: Vec<u32> = b.iter().map(|&c| c as u32).collect();
                    if oracle.wins(&cells) { GEORGIA } else { BOB }
                })
                .map(|s| format!("{s}\n"))
                .collect();
            OracleCase {
                input: format_cases(&cases, layouts[i % 3], &mut rng),
                expected,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).expect("test params")
    }

    /// The boards of an input, checked against the constraints.
    fn parse(input: &str) -> Vec<Vec<u64>> {
        let v: Vec<u64> = input
            .split_ascii_whitespace()
            .map(|t| t.parse().expect("number"))
            .collect();
        let t = v[0];
        assert!((1..=MAX_T).contains(&t));
        let mut pos = 1;
        let mut boards = Vec::new();
        for _ in 0..t {
            let n = v[pos] as usize;
            assert!((1..=MAX_N as usize).contains(&n));
            let cells = v[pos + 1..pos + 1 + n].to_vec();
            pos += 1 + n;
            let mut sorted = cells.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), n, "cells are distinct");
            assert!(cells.iter().all(|c| (1..=MAX_CELL).contains(c)));
            boards.push(cells);
        }
        assert_eq!(pos, v.len(), "nothing after the last board");
        boards
    }

    fn wins(o: &mut Oracle, b: &[u64]) -> bool {
        o.wins(&b.iter().map(|&c| c as u32).collect::<Vec<_>>())
    }

    #[test]
    fn boards_respect_constraints_and_repeat() {
        for yaml in [
            "{}",
            "{t: 20, n: 1000, layout: messy}",
            "{n: 1000, max: 1000, losing: 1.0}",
            "{n: [1, 3], max: 4, order: sorted}",
            "{n: 999, max: 1000, order: reversed}",
        ] {
            for seed in 0..5 {
                let a = random_cases(&params(yaml), &mut Rng::new(seed)).expect("generates");
                assert_eq!(
                    a,
                    random_cases(&params(yaml), &mut Rng::new(seed)).expect("again")
                );
                parse(&a);
            }
        }
    }

    #[test]
    fn constructed_boards_have_the_promised_outcome() {
        let mut o = Oracle::new();
        for seed in 0..10 {
            let p = params("{t: 20, n: [1, 5], max: 12, losing: 1.0}");
            for b in parse(&random_cases(&p, &mut Rng::new(seed)).expect("ok")) {
                assert!(!wins(&mut o, &b), "{b:?} should lose");
            }
            let p = params("{t: 20, n: [1, 5], max: 12, losing: 0.0}");
            for b in parse(&random_cases(&p, &mut Rng::new(seed)).expect("ok")) {
                assert!(wins(&mut o, &b), "{b:?} should win");
            }
        }
    }

    /// A wrong rule: its name and whether it says Georgia wins (sorted cells).
    type Mistake = (&'static str, fn(&[u64]) -> bool);

    /// Wrong ideas a contestant may have.
    fn mistakes() -> [Mistake; 4] {
        fn gaps(c: &[u64]) -> Vec<u64> {
            (0..c.len())
                .map(|i| c[i] - if i == 0 { 0 } else { c[i - 1] } - 1)
                .collect()
        }
        [
            ("pairs from the left", |c| {
                c.chunks(2)
                    .filter(|p| p.len() == 2)
                    .fold(0, |x, p| x ^ (p[1] - p[0] - 1))
                    != 0
            }),
            ("gap without the -1", |c| {
                let n = c.len();
                (0..n)
                    .filter(|&j| is_pile_gap(j, n))
                    .fold(0, |x, j| x ^ (c[j] - if j == 0 { 0 } else { c[j - 1] }))
                    != 0
            }),
            ("every gap", |c| gaps(c).iter().fold(0, |x, g| x ^ g) != 0),
            ("distances to the wall", |c| {
                c.iter().fold(0, |x, p| x ^ (p - 1)) != 0
            }),
        ]
    }

    #[test]
    fn generated_boards_expose_each_wrong_idea() {
        let mut o = Oracle::new();
        let p = params("{t: 20, n: [1, 6], max: 14}");
        let boards = parse(&random_cases(&p, &mut Rng::new(11)).expect("ok"));
        for (name, wrong) in mistakes() {
            let exposed = boards.iter().any(|b| {
                let mut s = b.clone();
                s.sort_unstable();
                wrong(&s) != wins(&mut o, b)
            });
            assert!(exposed, "no board exposes `{name}`");
        }
    }

    #[test]
    fn bad_knobs_are_errors() {
        let mut r = Rng::new(1);
        assert!(random_cases(&params("{t: 21}"), &mut r).is_err());
        assert!(random_cases(&params("{n: 1001}"), &mut r).is_err());
        assert!(random_cases(&params("{max: 10001}"), &mut r).is_err());
        assert!(random_cases(&params("{n: 10, max: 10}"), &mut r).is_err());
        assert!(random_cases(&params("{order: random}"), &mut r).is_err());
        assert!(random_cases(&params("{cases: 3}"), &mut r).is_err());
    }

    #[test]
    fn oracle_cases_cover_every_board_on_ten_cells() {
        let cases = oracle_cases();
        let boards: Vec<Vec<u64>> = cases.iter().flat_map(|c| parse(&c.input)).collect();
        assert_eq!(boards.len(), 1023);
        let bob = cases
            .iter()
            .map(|c| c.expected.matches(BOB).count())
            .sum::<usize>();
        assert!(bob > 50, "{bob} losing boards");
        let lines = cases
            .iter()
            .map(|c| c.expected.lines().count())
            .sum::<usize>();
        assert_eq!(lines, 1023);
    }
}
