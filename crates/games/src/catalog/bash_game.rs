//! Catalog entry for `bash-game` (HDU 1846): `C` cases `n m`, one pile of
//! `n`, take 1..m per move, last taker wins; `first` or `second` per case.

use super::kit::{Style, TRIES, outcome, range_within, render};
use super::{Entry, Family};
use crate::generate::{GenError, Params, Rng};

const C_LIMIT: (u64, u64) = (1, 100);
const N_LIMIT: (u64, u64) = (1, 1000);
const M_LIMIT: (u64, u64) = (1, 1000);

pub const ENTRY: Entry = Entry {
    id: "bash-game",
    families: &[
        Family {
            name: "bash-game-cases",
            about: "c (1..100) cases `n m` with n in 1..1000 and m in 1..1000; knobs losing, \
                near (winning piles next to multiples of m or m+1), layout, eol",
            generate: gen_cases,
        },
        Family {
            name: "bash-game-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::bash_game(), params, rng)
            },
        },
    ],
    // problems/bash-game/problem.yaml describes the game (`game:`): it gives
    // the input format, the oracle and the answers.
    coded: None,
};

/// Ranges and probabilities for one case.
struct Knobs {
    n: (u64, u64),
    m: (u64, u64),
    losing: f64,
    near: f64,
}

fn gen_cases(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["c", "n", "m", "losing", "near", "layout", "eol"])?;
    let c = range_within(params, "c", (1, 20), C_LIMIT)?;
    let knobs = Knobs {
        n: range_within(params, "n", N_LIMIT, N_LIMIT)?,
        m: range_within(params, "m", M_LIMIT, M_LIMIT)?,
        losing: params.f64_or("losing", 0.5)?,
        near: params.f64_or("near", 0.0)?,
    };
    let style = Style::read(params)?;
    let count = rng.range(c.0, c.1);
    let mut lines = vec![vec![count]];
    for _ in 0..count {
        let (n, m) = draw_case(rng, &knobs)?;
        lines.push(vec![n, m]);
    }
    Ok(render(&lines, style, rng))
}

fn draw_case(rng: &mut Rng, knobs: &Knobs) -> Result<(u64, u64), GenError> {
    let losing = rng.chance(knobs.losing);
    let near = rng.chance(knobs.near);
    for _ in 0..TRIES {
        let m = rng.range(knobs.m.0, knobs.m.1);
        let n = if losing {
            multiple_of(rng, m + 1, knobs.n)
        } else if near {
            near_multiple(rng, m, knobs.n)
        } else {
            Some(rng.range(knobs.n.0, knobs.n.1))
        };
        // Multiples of m + 1 are exactly the lost piles; the generator steers
        // by that, and the tests check it against the search.
        match n {
            Some(n) if n.is_multiple_of(m + 1) == losing => return Ok((n, m)),
            _ => continue,
        }
    }
    Err(GenError::Impossible(format!(
        "no {} case with n in {}..={} and m in {}..={}",
        outcome(losing),
        knobs.n.0,
        knobs.n.1,
        knobs.m.0,
        knobs.m.1
    )))
}

/// A multiple of `step` within `range`, if there is one.
fn multiple_of(rng: &mut Rng, step: u64, (lo, hi): (u64, u64)) -> Option<u64> {
    let first = lo.div_ceil(step).max(1);
    let last = hi / step;
    (first <= last).then(|| step * rng.range(first, last))
}

/// A pile one off a multiple of `m + 1`, or on a multiple of `m`: where an
/// off-by-one in the move bound or the ending changes the answer.
fn near_multiple(rng: &mut Rng, m: u64, (lo, hi): (u64, u64)) -> Option<u64> {
    let step = if rng.chance(0.5) { m } else { m + 1 };
    let base = multiple_of(rng, step, (lo.saturating_sub(1).max(1), hi + 1))?;
    let n = match rng.range(0, 2) {
        0 => base - 1,
        1 => base,
        _ => base + 1,
    };
    (lo..=hi).contains(&n).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::super::kit::test_support::{inputs, numbers, params};
    use super::*;
    use crate::games::bash::BashOracle;

    fn parse(input: &str) -> Vec<(u64, u64)> {
        let t = numbers(input);
        let c = t[0] as usize;
        assert!((1..=100).contains(&c));
        assert_eq!(t.len(), 1 + 2 * c);
        let cases: Vec<(u64, u64)> = t[1..].chunks(2).map(|p| (p[0], p[1])).collect();
        for &(n, m) in &cases {
            assert!(
                (1..=1000).contains(&n) && (1..=1000).contains(&m),
                "{n} {m}"
            );
        }
        cases
    }

    #[test]
    fn cases_respect_the_constraints() {
        let yaml = "{c: [1, 500], n: [0, 5000], m: [0, 5000], near: 0.5}";
        for input in inputs(gen_cases, yaml, 0..20) {
            parse(&input);
        }
        for input in inputs(
            gen_cases,
            "{c: 100, n: [990, 1000], losing: 1.0, layout: messy}",
            0..5,
        ) {
            assert_eq!(parse(&input).len(), 100);
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        let p = params("{c: [1, 100], near: 0.5, eol: false}");
        let a = gen_cases(&p, &mut Rng::new(2)).unwrap();
        assert_eq!(a, gen_cases(&p, &mut Rng::new(2)).unwrap());
        assert_ne!(a, gen_cases(&p, &mut Rng::new(3)).unwrap());
        assert!(!a.ends_with('\n'));
    }

    #[test]
    fn losing_construction_loses_by_search() {
        for (yaml, wins) in [
            ("{c: 100, n: [1, 60], m: [1, 12], losing: 1.0}", false),
            (
                "{c: 100, n: [1, 60], m: [1, 12], losing: 0.0, near: 0.7}",
                true,
            ),
        ] {
            for input in inputs(gen_cases, yaml, 0..3) {
                for (n, m) in parse(&input) {
                    assert_eq!(BashOracle::new(m).first_player_wins(n), wins, "{n} {m}");
                }
            }
        }
    }

    #[test]
    fn near_cases_sit_next_to_multiples() {
        for input in inputs(gen_cases, "{c: 100, losing: 0.0, near: 1.0}", 0..3) {
            for (n, m) in parse(&input) {
                let close = |s: u64| [n - 1, n, n + 1].iter().any(|&x| x.is_multiple_of(s));
                assert!(close(m) || close(m + 1), "{n} {m}");
            }
        }
    }

    #[test]
    fn impossible_knobs_are_errors() {
        let p = params("{n: [1, 5], m: [10, 20], losing: 1.0}");
        assert!(matches!(
            gen_cases(&p, &mut Rng::new(0)),
            Err(GenError::Impossible(_))
        ));
        assert!(gen_cases(&params("{k: 3}"), &mut Rng::new(0)).is_err());
    }
}
