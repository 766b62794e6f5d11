//! Catalog entry for `john` (HDU 1907): `T` cases of misère Nim, each `N`
//! then `N` piles; `John` when the first player wins, else `Brother`.

use super::kit::{PileKnobs, Rule, Style, draw_position, range_within, render};
use super::{Entry, Family};
use crate::generate::{GenError, Params, Rng};

const T_LIMIT: (u64, u64) = (1, 474);
const N_LIMIT: (u64, u64) = (1, 47);
const A_LIMIT: (u64, u64) = (1, 4747);

pub const ENTRY: Entry = Entry {
    id: "john",
    families: &[
        Family {
            name: "john-cases",
            about: "t (1..474) misère Nim cases of n (1..47) piles in min..max (1..4747); \
                knobs losing, ones, trap (single stones at both ends), layout, eol",
            generate: gen_cases,
        },
        Family {
            name: "john-extremes",
            about: super::extremes::ABOUT,
            generate: |p, r| super::extremes::generate(&super::format::john(), p, r),
        },
    ],
    // problems/john/problem.yaml describes the game (`game:`): it gives
    // the input format, the oracle and the answers.
    coded: None,
};

fn gen_cases(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&[
        "t", "n", "min", "max", "losing", "ones", "trap", "layout", "eol",
    ])?;
    let t = range_within(params, "t", (1, 20), T_LIMIT)?;
    let knobs = PileKnobs::read(params, N_LIMIT, A_LIMIT)?;
    let style = Style::read(params)?;
    let count = rng.range(t.0, t.1);
    let mut positions = Vec::with_capacity(count as usize);
    for _ in 0..count {
        positions.push(draw_position(rng, &knobs, Rule::Misere)?);
    }
    Ok(render(&lines_of(&positions), style, rng))
}

fn lines_of(positions: &[Vec<u64>]) -> Vec<Vec<u64>> {
    let mut lines = vec![vec![positions.len() as u64]];
    for p in positions {
        lines.push(vec![p.len() as u64]);
        lines.push(p.clone());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::kit::test_support::{inputs, numbers, params};
    use super::*;
    use crate::games::nim::NimOracle;

    /// The cases of an input, checked against the format on the way.
    fn parse(input: &str) -> Vec<Vec<u64>> {
        let t = numbers(input);
        let count = t[0] as usize;
        assert!((1..=474).contains(&count));
        let mut cases = Vec::new();
        let mut i = 1;
        for _ in 0..count {
            let n = t[i] as usize;
            assert!((1..=47).contains(&n));
            let piles = t[i + 1..=i + n].to_vec();
            assert!(piles.iter().all(|a| (1..=4747).contains(a)));
            cases.push(piles);
            i += n + 1;
        }
        assert_eq!(i, t.len(), "nothing after the last case");
        cases
    }

    #[test]
    fn cases_respect_the_constraints() {
        let yaml = "{t: [1, 1000], n: [0, 100], max: 10000, ones: 0.2, trap: 0.2}";
        for input in inputs(gen_cases, yaml, 0..10) {
            parse(&input);
        }
        for input in inputs(
            gen_cases,
            "{t: 474, n: 47, layout: messy, eol: false}",
            0..3,
        ) {
            assert_eq!(parse(&input).len(), 474);
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        let p = params("{t: [1, 30], trap: 0.3, layout: blank}");
        let a = gen_cases(&p, &mut Rng::new(5)).unwrap();
        assert_eq!(a, gen_cases(&p, &mut Rng::new(5)).unwrap());
        assert_ne!(a, gen_cases(&p, &mut Rng::new(6)).unwrap());
    }

    #[test]
    fn losing_construction_loses_by_search() {
        let mut oracle = NimOracle::misere();
        let cases = [
            (
                "{t: 30, n: [1, 4], max: 6, losing: 1.0, ones: 0.3, trap: 0.3}",
                false,
            ),
            (
                "{t: 30, n: [1, 4], max: 6, losing: 0.0, ones: 0.3, trap: 0.3}",
                true,
            ),
        ];
        for (yaml, wins) in cases {
            for input in inputs(gen_cases, yaml, 0..4) {
                for piles in parse(&input) {
                    assert_eq!(oracle.first_player_wins(&piles), wins, "{piles:?}");
                }
            }
        }
    }

    #[test]
    fn unknown_knobs_are_errors() {
        assert!(gen_cases(&params("{cases: 3}"), &mut Rng::new(0)).is_err());
    }
}
