//! Catalog entry for `matches-game` (POJ 2234): cases until end of input,
//! each `M a1 … aM`; one `Yes`/`No` per case for normal-play Nim.

use super::kit::{PileKnobs, Rule, Style, draw_position, range_within, render};
use super::{Entry, Family};
use crate::generate::{GenError, Params, Rng};

const M_LIMIT: (u64, u64) = (1, 20);
const A_LIMIT: (u64, u64) = (1, 10_000_000);
/// The format has no case count; this keeps one input file a few megabytes.
const CASES_LIMIT: (u64, u64) = (1, 50_000);

pub const ENTRY: Entry = Entry {
    id: "matches-game",
    families: &[
        Family {
            name: "matches-game-cases",
            about: "`cases` Nim positions until end of input: m (1..20) piles in min..max \
                (1..10^7); knobs losing, ones, layout, eol",
            generate: gen_cases,
        },
        Family {
            name: "matches-game-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::matches_game(), params, rng)
            },
        },
    ],
    // problems/matches-game/problem.yaml describes the game (`game:`): it gives
    // the input format, the oracle and the answers.
    coded: None,
};

fn gen_cases(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&[
        "cases", "m", "min", "max", "losing", "ones", "layout", "eol",
    ])?;
    let cases = range_within(params, "cases", (1, 50), CASES_LIMIT)?;
    let mut knobs = PileKnobs::read(params, M_LIMIT, A_LIMIT)?;
    knobs.n = range_within(params, "m", M_LIMIT, M_LIMIT)?;
    let style = Style::read(params)?;
    let count = rng.range(cases.0, cases.1);
    let mut lines = Vec::with_capacity(count as usize);
    for _ in 0..count {
        lines.push(case_line(&draw_position(rng, &knobs, Rule::Normal)?));
    }
    Ok(render(&lines, style, rng))
}

fn case_line(piles: &[u64]) -> Vec<u64> {
    let mut line = vec![piles.len() as u64];
    line.extend_from_slice(piles);
    line
}

#[cfg(test)]
mod tests {
    use super::super::kit::test_support::{inputs, numbers, params};
    use super::*;
    use crate::games::nim::NimOracle;

    /// The cases of an input, checked against the format on the way.
    fn parse(input: &str) -> Vec<Vec<u64>> {
        let t = numbers(input);
        let mut cases = Vec::new();
        let mut i = 0;
        while i < t.len() {
            let m = t[i] as usize;
            assert!((1..=20).contains(&m), "M = {m}");
            assert!(i + m < t.len(), "case cut short");
            let piles = t[i + 1..=i + m].to_vec();
            assert!(piles.iter().all(|a| (1..=10_000_000).contains(a)));
            cases.push(piles);
            i += m + 1;
        }
        cases
    }

    #[test]
    fn cases_respect_the_constraints() {
        for input in inputs(
            gen_cases,
            "{cases: [1, 80], m: [0, 99], max: 99999999}",
            0..15,
        ) {
            let cases = parse(&input);
            assert!((1..=80).contains(&cases.len()));
        }
        for input in inputs(
            gen_cases,
            "{cases: 30, layout: messy, eol: false, ones: 0.3}",
            0..15,
        ) {
            assert_eq!(parse(&input).len(), 30);
            assert!(!input.ends_with(char::is_whitespace));
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        let p = params("{cases: [5, 20], layout: blank}");
        let a = gen_cases(&p, &mut Rng::new(1)).unwrap();
        assert_eq!(a, gen_cases(&p, &mut Rng::new(1)).unwrap());
        assert_ne!(a, gen_cases(&p, &mut Rng::new(2)).unwrap());
    }

    #[test]
    fn blank_layout_keeps_each_case_on_one_line() {
        for input in inputs(gen_cases, "{cases: 40, layout: blank}", 0..5) {
            let lines: Vec<&str> = input.lines().filter(|l| !l.trim().is_empty()).collect();
            assert_eq!(lines.len(), 40);
            assert!(
                input.lines().any(|l| l.trim().is_empty()),
                "some blank line"
            );
        }
    }

    #[test]
    fn losing_construction_loses_by_search() {
        let mut oracle = NimOracle::normal();
        for input in inputs(
            gen_cases,
            "{cases: 20, m: [1, 4], max: 7, losing: 1.0}",
            0..5,
        ) {
            for piles in parse(&input) {
                assert!(!oracle.first_player_wins(&piles), "{piles:?}");
            }
        }
        for input in inputs(
            gen_cases,
            "{cases: 20, m: [1, 4], max: 7, losing: 0.0, ones: 0.5}",
            0..5,
        ) {
            for piles in parse(&input) {
                assert!(oracle.first_player_wins(&piles), "{piles:?}");
            }
        }
    }

    #[test]
    fn unknown_knobs_are_errors() {
        assert!(gen_cases(&params("{n: 3}"), &mut Rng::new(0)).is_err());
    }
}
