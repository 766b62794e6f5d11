//! Catalog entry for `new-stone-game` (POJ 1740): cases until a line `0`,
//! each `n` (1 ≤ n ≤ 10) then `n` piles 1 ≤ a_i ≤ 100; per case `1` when the
//! first player wins, else `0`.
//!
//! Losing positions are built by mirroring (every pile has an equal twin),
//! which the game oracle confirms on small cases; the traps are winning
//! positions that fool the usual wrong ideas (nim-sum zero, an even count).

use super::piles;
use super::text_layout::{Layout, read_layout, render};
use super::{Coded, Entry, Family, OracleCase, tokens_match};
use crate::games::new_stone::Oracle;
use crate::generate::{GenError, Params, Rng};

pub const ENTRY: Entry = Entry {
    id: "new-stone-game",
    families: &[
        Family {
            name: "new-stone-game-cases",
            about: "many positions ended by `0`: mirrored losing ones, random, nim-sum-zero and near-miss winning ones",
            generate: random_cases,
        },
        Family {
            name: "new-stone-game-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::new_stone_game(), params, rng)
            },
        },
    ],
    coded: Some(Coded {
        format: super::format::new_stone_game,
        oracle_cases,
        accepts: tokens_match,
    }),
};

const MAX_N: u64 = 10;
const MAX_PILE: u64 = 100;
/// No bound in the original statement; ours says at most 10^5 positions.
const MAX_CASES: u64 = 100_000;

fn format_cases(cases: &[Vec<u64>], layout: Layout, rng: &mut Rng) -> String {
    let mut lines = Vec::with_capacity(2 * cases.len() + 1);
    for p in cases {
        lines.push(p.len().to_string());
        lines.push(piles::join(p));
    }
    lines.push("0".into());
    render(&lines, layout, rng)
}

/// Whether the piles split into pairs of equal piles.
fn mirrored(piles: &[u64]) -> bool {
    let mut p = piles.to_vec();
    p.sort_unstable();
    p.len().is_multiple_of(2) && p.chunks(2).all(|c| c[0] == c[1])
}

struct Knobs {
    n: (u64, u64),
    min: u64,
    max: u64,
    losing: f64,
    nim: f64,
    near: f64,
}

/// A mirrored position: `n` even, each value twice, shuffled.
fn losing_case(rng: &mut Rng, k: &Knobs) -> Option<Vec<u64>> {
    let lo = k.n.0 + k.n.0 % 2;
    let hi = k.n.1 - k.n.1 % 2;
    if lo > hi {
        return None;
    }
    let n = 2 * rng.range(lo / 2, hi / 2) as usize;
    let half = piles::random(rng, n / 2, k.min, k.max);
    let mut p: Vec<u64> = half.iter().flat_map(|&v| [v, v]).collect();
    rng.shuffle(&mut p);
    Some(p)
}

/// Winning but with nim-sum zero: wrong for anyone who plays it as Nim.
fn nim_trap(rng: &mut Rng, k: &Knobs) -> Option<Vec<u64>> {
    if k.n.1 < 3 {
        return None; // one pile never has nim-sum 0; two equal piles are mirrored
    }
    (0..100).find_map(|_| {
        let n = rng.range(k.n.0.max(3), k.n.1) as usize;
        piles::xor_zero(rng, n, k.min, k.max).filter(|p| !mirrored(p))
    })
}

/// A mirrored position with one pile off by one: winning, one move from losing.
fn near_trap(rng: &mut Rng, k: &Knobs) -> Option<Vec<u64>> {
    let mut p = losing_case(rng, k)?;
    let i = rng.range(0, p.len() as u64 - 1) as usize;
    p[i] = if p[i] < k.max {
        p[i] + 1
    } else {
        p[i].checked_sub(1)?.max(k.min)
    };
    (!mirrored(&p)).then_some(p)
}

fn random_winning(rng: &mut Rng, k: &Knobs) -> Option<Vec<u64>> {
    (0..100).find_map(|_| {
        let n = rng.range(k.n.0, k.n.1) as usize;
        Some(piles::random(rng, n, k.min, k.max)).filter(|p| !mirrored(p))
    })
}

fn one_case(rng: &mut Rng, k: &Knobs) -> Result<Vec<u64>, GenError> {
    let case = if rng.chance(k.losing) {
        losing_case(rng, k)
    } else if rng.chance(k.nim) {
        nim_trap(rng, k).or_else(|| random_winning(rng, k))
    } else if rng.chance(k.near) {
        near_trap(rng, k).or_else(|| random_winning(rng, k))
    } else {
        random_winning(rng, k)
    };
    case.ok_or_else(|| {
        GenError::Impossible(format!(
            "no position with n in {}..={} and piles in {}..={} fits the request",
            k.n.0, k.n.1, k.min, k.max
        ))
    })
}

/// `new-stone-game-cases`: knobs `cases` (range, default 1..100), `n`
/// (range, default 1..10), `min`, `max` (piles, default 1..100), `losing`
/// (chance of a mirrored losing position, default 0.5), `nim` (chance that a
/// winning position has nim-sum zero, default 0.3), `near` (chance that a
/// winning one is a mirrored position off by one, default 0.3), `layout`.
fn random_cases(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&[
        "cases", "n", "min", "max", "losing", "nim", "near", "layout",
    ])?;
    let cases = params.range_or("cases", (1, 100))?;
    let k = Knobs {
        n: params.range_or("n", (1, MAX_N))?,
        min: params.u64_or("min", 1)?.max(1),
        max: params.u64_or("max", MAX_PILE)?,
        losing: params.f64_or("losing", 0.5)?,
        nim: params.f64_or("nim", 0.3)?,
        near: params.f64_or("near", 0.3)?,
    };
    let layout = read_layout(params)?;
    if cases.0 == 0 || cases.1 > MAX_CASES || k.n.0 == 0 || k.n.1 > MAX_N {
        return Err(GenError::Impossible(format!(
            "need 1 <= cases <= {MAX_CASES} and 1 <= n <= {MAX_N}"
        )));
    }
    if k.min > k.max || k.max > MAX_PILE {
        return Err(GenError::Impossible(format!(
            "piles must stay within 1..={MAX_PILE}"
        )));
    }
    if k.losing > 0.0 && k.n.0 + k.n.0 % 2 > k.n.1 {
        return Err(GenError::Impossible(
            "losing positions need an even number of piles in the n range".into(),
        ));
    }
    let count = rng.range(cases.0, cases.1);
    let all = (0..count)
        .map(|_| one_case(rng, &k))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(format_cases(&all, layout, rng))
}

/// Every multiset of piles up to a size bound that shrinks as `n` grows
/// (n = 1 up to 30 … n = 7..10 up to 2), shuffled, in three inputs.
fn oracle_cases() -> Vec<OracleCase> {
    use super::kit::multisets;
    use super::nim_winning_move::scramble;
    let bounds = [
        (1, 30),
        (2, 20),
        (3, 10),
        (4, 6),
        (5, 4),
        (6, 3),
        (7, 2),
        (8, 2),
        (9, 2),
        (10, 2),
    ];
    let positions: Vec<Vec<u64>> = bounds
        .iter()
        .flat_map(|&(n, max)| multisets(n, max))
        .enumerate()
        .map(|(c, p)| scramble(p, c))
        .collect();
    let mut oracle = Oracle::new();
    let mut rng = Rng::new(1740);
    let layouts = [Layout::Plain, Layout::Messy, Layout::NoFinalNewline];
    let per = positions.len().div_ceil(layouts.len());
    positions
        .chunks(per)
        .zip(layouts)
        .map(|(chunk, layout)| OracleCase {
            input: format_cases(chunk, layout, &mut rng),
            expected: chunk
                .iter()
                .map(|p| {
                    let p: Vec<u32> = p.iter().map(|&v| v as u32).collect();
                    if oracle.wins(&p) { "1\n" } else { "0\n" }
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).expect("test params")
    }

    /// The positions of an input, checked against the constraints.
    fn parse(input: &str) -> Vec<Vec<u64>> {
        let v: Vec<u64> = input
            .split_ascii_whitespace()
            .map(|t| t.parse().expect("number"))
            .collect();
        let mut pos = 0;
        let mut cases = Vec::new();
        while v[pos] != 0 {
            let n = v[pos] as usize;
            assert!(n as u64 <= MAX_N);
            let p = v[pos + 1..pos + 1 + n].to_vec();
            assert!(p.iter().all(|a| (1..=MAX_PILE).contains(a)));
            cases.push(p);
            pos += 1 + n;
        }
        assert_eq!(pos + 1, v.len(), "nothing after the final 0");
        assert!(cases.len() as u64 <= MAX_CASES);
        cases
    }

    fn wins(o: &mut Oracle, p: &[u64]) -> bool {
        o.wins(&p.iter().map(|&v| v as u32).collect::<Vec<_>>())
    }

    #[test]
    fn families_respect_constraints_and_repeat() {
        for yaml in [
            "{}",
            "{cases: 100000, layout: messy}",
            "{n: 1, losing: 0}",
            "{n: [1, 2], losing: 0, nim: 1.0}",
            "{n: [9, 10], min: 100, max: 100, nim: 1.0}",
            "{cases: 3, n: 2, max: 1, losing: 1.0, layout: no-final-newline}",
        ] {
            for seed in 0..3 {
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
    fn mirrored_positions_lose_and_traps_win_by_search() {
        let mut o = Oracle::new();
        let p = params("{cases: 40, n: [1, 4], max: 4, losing: 1.0}");
        for c in parse(&random_cases(&p, &mut Rng::new(3)).expect("ok")) {
            assert!(!wins(&mut o, &c), "{c:?} should lose");
        }
        let p = params("{cases: 40, n: [1, 4], max: 4, losing: 0.0, nim: 0.5, near: 0.5}");
        for c in parse(&random_cases(&p, &mut Rng::new(4)).expect("ok")) {
            assert!(wins(&mut o, &c), "{c:?} should win");
        }
    }

    #[test]
    fn nim_traps_have_nim_sum_zero_yet_win() {
        let p = params("{cases: 50, losing: 0.0, nim: 1.0}");
        let cases = parse(&random_cases(&p, &mut Rng::new(5)).expect("ok"));
        for c in &cases {
            assert_eq!(c.iter().fold(0, |a, b| a ^ b), 0, "{c:?}");
            assert!(!mirrored(c));
        }
        assert!(
            cases.iter().any(|c| c.len() % 2 == 0),
            "even counts are traps too"
        );
    }

    #[test]
    fn bad_knobs_are_errors() {
        let mut r = Rng::new(1);
        assert!(random_cases(&params("{n: 11}"), &mut r).is_err());
        assert!(random_cases(&params("{max: 101}"), &mut r).is_err());
        assert!(random_cases(&params("{n: 3}"), &mut r).is_err());
        assert!(random_cases(&params("{cases: 100001}"), &mut r).is_err());
        assert!(random_cases(&params("{piles: 2}"), &mut r).is_err());
    }

    #[test]
    fn oracle_cases_agree_with_the_mirror_rule_on_a_sample() {
        let cases = oracle_cases();
        let positions: Vec<Vec<u64>> = cases.iter().flat_map(|c| parse(&c.input)).collect();
        let answers: Vec<&str> = cases
            .iter()
            .flat_map(|c| c.expected.split_whitespace())
            .collect();
        assert_eq!(positions.len(), answers.len());
        assert!(positions.len() > 700);
        // Spot checks worked out by hand (see games::new_stone).
        for (p, a) in positions.iter().zip(&answers) {
            let mut s = p.clone();
            s.sort_unstable();
            match s.as_slice() {
                [1, 1] | [2, 2] | [1, 1, 2, 2] => assert_eq!(*a, "0"),
                [1] | [1, 2] | [1, 1, 1] | [1, 2, 3] => assert_eq!(*a, "1"),
                _ => {}
            }
        }
        let losing = answers.iter().filter(|&&a| a == "0").count();
        assert!(losing > 30, "{losing} losing positions");
    }
}
