//! Catalog entry for `nim-count-moves` (POJ 2975): cases until a line `0`,
//! each `n k1 … kn` (1 ≤ n ≤ 1000, 1 ≤ k_i ≤ 10^9); per case, the number of
//! first moves after which the opponent loses.

use super::kit::multisets;
use super::nim_winning_move::scramble;
use super::piles;
use super::text_layout::{Layout, read_layout, render};
use super::{Coded, Entry, Family, OracleCase, tokens_match};
use crate::games::nim::NimOracle;
use crate::generate::{GenError, Params, Rng};

pub const ENTRY: Entry = Entry {
    id: "nim-count-moves",
    families: &[
        Family {
            name: "nim-count-moves-cases",
            about: "many Nim positions ended by `0`: constructed losing ones and random winning ones",
            generate: random_cases,
        },
        Family {
            name: "nim-count-moves-many",
            about: "winning Nim positions where many piles (often equal ones) give a winning move",
            generate: many_cases,
        },
        Family {
            name: "nim-count-moves-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::nim_count_moves(), params, rng)
            },
        },
    ],
    coded: Some(Coded {
        format: super::format::nim_count_moves,
        oracle_cases,
        accepts: tokens_match,
    }),
};

const MAX_N: u64 = 1000;
const MAX_PILE: u64 = 1_000_000_000;
/// The statement allows at most 600 positions (about 6 MB of input).
const MAX_CASES: u64 = 600;

/// The input text of `cases`, with the terminating `0`.
fn format_cases(cases: &[Vec<u64>], layout: Layout, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = cases
        .iter()
        .map(|p| format!("{} {}", p.len(), piles::join(p)))
        .collect();
    lines.push("0".into());
    render(&lines, layout, rng)
}

struct Shape {
    cases: (u64, u64),
    n: (u64, u64),
    min: u64,
    max: u64,
    layout: Layout,
}

fn read_shape(params: &Params) -> Result<Shape, GenError> {
    let cases = params.range_or("cases", (1, 20))?;
    let n = params.range_or("n", (1, 10))?;
    let min = params.u64_or("min", 1)?.max(1);
    let max = params.u64_or("max", MAX_PILE)?;
    if cases.0 == 0 || cases.1 > MAX_CASES {
        return Err(GenError::Impossible(format!(
            "cases must stay within 1..={MAX_CASES}"
        )));
    }
    if n.0 == 0 || n.1 > MAX_N {
        return Err(GenError::Impossible(format!(
            "n must stay within 1..={MAX_N}"
        )));
    }
    if min > max || max > MAX_PILE {
        return Err(GenError::Impossible(format!(
            "piles must satisfy 1 <= min <= max <= {MAX_PILE}, got {min}..={max}"
        )));
    }
    let layout = read_layout(params)?;
    Ok(Shape {
        cases,
        n,
        min,
        max,
        layout,
    })
}

/// `nim-count-moves-cases`: knobs `cases` (range, default 1..20), `n`
/// (range, default 1..10), `min`, `max`, `losing` (chance that a case has
/// nim-sum 0, default 0.5; such cases get at least two piles), `layout`.
fn random_cases(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["cases", "n", "min", "max", "losing", "layout"])?;
    let shape = read_shape(params)?;
    let losing = params.f64_or("losing", 0.5)?;
    if shape.n.1 < 2 && losing > 0.0 {
        return Err(GenError::Impossible(
            "a single pile always wins: allow n >= 2 or set losing: 0".into(),
        ));
    }
    let count = rng.range(shape.cases.0, shape.cases.1);
    let mut cases = Vec::with_capacity(count as usize);
    for _ in 0..count {
        if rng.chance(losing) {
            let n = rng.range(shape.n.0.max(2), shape.n.1) as usize;
            let p = piles::xor_zero(rng, n, shape.min, shape.max).ok_or_else(|| {
                GenError::Impossible(format!(
                    "no {n} piles in {}..={} with nim-sum 0 found",
                    shape.min, shape.max
                ))
            })?;
            cases.push(p);
        } else {
            let n = rng.range(shape.n.0, shape.n.1) as usize;
            let p = piles::xor_nonzero(rng, n, shape.min, shape.max).ok_or_else(|| {
                GenError::Impossible(format!(
                    "{n} piles all equal to {} always have nim-sum 0",
                    shape.min
                ))
            })?;
            cases.push(p);
        }
    }
    Ok(format_cases(&cases, shape.layout, rng))
}

/// `nim-count-moves-many`: knobs `cases`, `n`, `max`, `layout`. An odd
/// number of piles all share their top bit, which is then the top bit of the
/// nim-sum, so every pile has a winning move; `max` small gives many equal piles.
fn many_cases(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["cases", "n", "max", "layout"])?;
    let shape = read_shape(params)?;
    let high = 1u64 << (63 - shape.max.leading_zeros());
    let count = rng.range(shape.cases.0, shape.cases.1);
    let mut cases = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let mut n = rng.range(shape.n.0, shape.n.1);
        if n.is_multiple_of(2) {
            n = if n < shape.n.1 { n + 1 } else { n - 1 };
        }
        if n == 0 {
            return Err(GenError::Impossible(
                "the n range holds no odd number".into(),
            ));
        }
        cases.push(piles::random(
            rng,
            n as usize,
            high,
            shape.max.min(2 * high - 1),
        ));
    }
    Ok(format_cases(&cases, shape.layout, rng))
}

/// Every multiset of 1–3 piles up to 7, of 4 piles up to 6 and of 5 piles up
/// to 4, in varied orders, packed into three inputs with different layouts.
fn oracle_cases() -> Vec<OracleCase> {
    let mut oracle = NimOracle::normal();
    let positions: Vec<Vec<u64>> = (1..=3)
        .flat_map(|n| multisets(n, 7))
        .chain(multisets(4, 6))
        .chain(multisets(5, 4))
        .enumerate()
        .map(|(c, p)| scramble(p, c))
        .collect();
    let mut rng = Rng::new(2975);
    let layouts = [Layout::Plain, Layout::Messy, Layout::NoFinalNewline];
    let per = positions.len().div_ceil(layouts.len());
    positions
        .chunks(per)
        .zip(layouts)
        .map(|(chunk, layout)| OracleCase {
            input: format_cases(chunk, layout, &mut rng),
            expected: chunk
                .iter()
                .map(|p| format!("{}\n", oracle.winning_moves(p).len()))
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases of an input, checked against the constraints.
    fn parse_input(input: &str) -> Result<Vec<Vec<u64>>, String> {
        let mut tokens = input.split_ascii_whitespace().map(|t| {
            t.parse::<u64>()
                .map_err(|_| format!("`{t}` is not a non-negative integer"))
        });
        let mut cases = Vec::new();
        loop {
            let n = tokens.next().ok_or("missing the final `0`")??;
            if n == 0 {
                break;
            }
            if n > MAX_N {
                return Err(format!("n = {n} is above {MAX_N}"));
            }
            let piles: Vec<u64> = tokens.by_ref().take(n as usize).collect::<Result<_, _>>()?;
            if piles.len() as u64 != n || piles.iter().any(|a| !(1..=MAX_PILE).contains(a)) {
                return Err(format!("case {}: bad piles", cases.len() + 1));
            }
            cases.push(piles);
        }
        if tokens.next().is_some() {
            return Err("tokens after the final `0`".into());
        }
        Ok(cases)
    }

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).expect("test params")
    }

    #[test]
    fn search_counts_hand_checked_positions() {
        let mut o = NimOracle::normal();
        // 7 11 13: nim-sum 1, and every pile is odd, so each can drop one stone.
        assert_eq!(o.winning_moves(&[7, 11, 13]).len(), 3);
        assert_eq!(o.winning_moves(&[1, 2, 3]).len(), 0);
        // 2 2 2: take a whole pile (three choices).
        assert_eq!(o.winning_moves(&[2, 2, 2]).len(), 3);
        assert_eq!(o.winning_moves(&[1, 5]).len(), 1);
    }

    #[test]
    fn families_respect_constraints_and_repeat() {
        for (f, yaml) in [
            (
                random_cases as fn(&Params, &mut Rng) -> Result<String, GenError>,
                "{}",
            ),
            (random_cases, "{cases: 600, n: 1000, layout: messy}"),
            (random_cases, "{n: 1, losing: 0, layout: no-final-newline}"),
            (many_cases, "{n: [1, 1000], max: 6}"),
            (many_cases, "{n: [2, 2], cases: 5}"),
        ] {
            for seed in 0..4 {
                let a = f(&params(yaml), &mut Rng::new(seed)).expect("generates");
                assert_eq!(a, f(&params(yaml), &mut Rng::new(seed)).expect("again"));
                let cases = parse_input(&a).expect("valid");
                assert!(!cases.is_empty() && cases.len() as u64 <= MAX_CASES);
            }
        }
    }

    #[test]
    fn constructed_cases_have_the_promised_counts() {
        let mut o = NimOracle::normal();
        let p = params("{cases: 60, n: [2, 4], max: 7, losing: 0.5}");
        let cases = parse_input(&random_cases(&p, &mut Rng::new(4)).expect("ok")).expect("ok");
        let losing = cases.iter().filter(|c| !o.first_player_wins(c)).count();
        assert!((20..=40).contains(&losing), "{losing} of 60 losing");
        let p = params("{cases: 30, n: [1, 5], max: 7}");
        for c in parse_input(&many_cases(&p, &mut Rng::new(6)).expect("ok")).expect("ok") {
            assert_eq!(o.winning_moves(&c).len(), c.len(), "{c:?}");
        }
    }

    #[test]
    fn bad_knobs_are_errors() {
        let mut r = Rng::new(1);
        assert!(random_cases(&params("{n: 1001}"), &mut r).is_err());
        assert!(random_cases(&params("{n: 1}"), &mut r).is_err());
        assert!(random_cases(&params("{cases: 0}"), &mut r).is_err());
        assert!(random_cases(&params("{max: 1000000001}"), &mut r).is_err());
        assert!(many_cases(&params("{losing: 0.5}"), &mut r).is_err());
    }

    #[test]
    fn oracle_cases_are_valid_and_complete() {
        let cases = oracle_cases();
        let positions: usize = cases
            .iter()
            .map(|c| parse_input(&c.input).expect("valid").len())
            .sum();
        assert_eq!(positions, 7 + 28 + 84 + 126 + 56);
        let zeros = cases
            .iter()
            .flat_map(|c| c.expected.split_whitespace())
            .filter(|&t| t == "0")
            .count();
        assert!(zeros > 20, "{zeros} losing positions");
    }
}
