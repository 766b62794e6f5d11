//! Catalog entry for `nim` (hihoCoder 1163): `N`, then `N` piles; `Alice`
//! when the first player wins normal-play Nim, else `Bob`.

use super::kit::{PileKnobs, Rule, Style, draw_position, render};
use super::{Entry, Family};
use crate::generate::{GenError, Params, Rng};

const N_LIMIT: (u64, u64) = (1, 100);
const A_LIMIT: (u64, u64) = (1, 10_000);

pub const ENTRY: Entry = Entry {
    id: "nim",
    families: &[
        Family {
            name: "nim-piles",
            about: "one Nim position: n (1..100) piles in min..max (1..10^4); \
                knobs losing, ones (all single stones), even_sum, layout, eol",
            generate: gen_piles,
        },
        Family {
            name: "nim-extremes",
            about: super::extremes::ABOUT,
            generate: |p, r| super::extremes::generate(&super::format::nim(), p, r),
        },
    ],
    // problems/nim/problem.yaml describes the game (`game:`): it gives
    // the input format, the oracle and the answers.
    coded: None,
};

fn gen_piles(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&[
        "n", "min", "max", "losing", "ones", "even_sum", "layout", "eol",
    ])?;
    let knobs = PileKnobs::read(params, N_LIMIT, A_LIMIT)?;
    let style = Style::read(params)?;
    let piles = draw_position(rng, &knobs, Rule::Normal)?;
    Ok(render(&[vec![piles.len() as u64], piles], style, rng))
}

#[cfg(test)]
mod tests {
    use super::super::kit::test_support::{inputs, numbers, params};
    use super::super::kit::*;
    use super::*;
    use crate::games::nim::NimOracle;

    fn parse(input: &str) -> Vec<u64> {
        let t = numbers(input);
        assert_eq!(t[0] as usize, t.len() - 1, "N matches the pile count");
        t[1..].to_vec()
    }

    #[test]
    fn piles_respect_the_constraints() {
        for input in inputs(gen_piles, "{}", 0..30) {
            let piles = parse(&input);
            assert!((1..=100).contains(&piles.len()));
            assert!(piles.iter().all(|a| (1..=10_000).contains(a)));
        }
    }

    #[test]
    fn out_of_range_knobs_are_clamped() {
        for input in inputs(gen_piles, "{n: [50, 500], min: 0, max: 99999}", 0..10) {
            let piles = parse(&input);
            assert!((50..=100).contains(&piles.len()));
            assert!(piles.iter().all(|a| (1..=10_000).contains(a)));
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        let p = params("{n: [1, 30], layout: messy, losing: 0.5}");
        let a = gen_piles(&p, &mut Rng::new(9)).unwrap();
        let b = gen_piles(&p, &mut Rng::new(9)).unwrap();
        let c = gen_piles(&p, &mut Rng::new(10)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn losing_construction_loses_by_search() {
        let mut oracle = NimOracle::normal();
        for input in inputs(gen_piles, "{n: [1, 4], max: 6, losing: 1.0}", 0..40) {
            assert!(!oracle.first_player_wins(&parse(&input)), "{input}");
        }
        for input in inputs(gen_piles, "{n: [1, 4], max: 6, losing: 0.0}", 0..40) {
            assert!(oracle.first_player_wins(&parse(&input)), "{input}");
        }
    }

    #[test]
    fn single_stone_positions_follow_the_count() {
        let mut oracle = NimOracle::normal();
        for input in inputs(gen_piles, "{n: [1, 9], ones: 1.0}", 0..20) {
            let piles = parse(&input);
            assert!(piles.iter().all(|&a| a == 1));
            assert_eq!(
                oracle.first_player_wins(&piles),
                !piles.len().is_multiple_of(2),
                "{piles:?}"
            );
        }
    }

    #[test]
    fn even_sum_winning_positions() {
        let mut oracle = NimOracle::normal();
        for input in inputs(
            gen_piles,
            "{n: [2, 5], max: 7, losing: 0.0, even_sum: true}",
            0..30,
        ) {
            let piles = parse(&input);
            assert_eq!(piles.iter().sum::<u64>() % 2, 0);
            assert!(oracle.first_player_wins(&piles));
        }
    }

    #[test]
    fn impossible_and_misspelt_knobs_are_errors() {
        let mut r = Rng::new(1);
        assert!(matches!(
            gen_piles(&params("{nn: 3}"), &mut r),
            Err(GenError::Unknown { .. })
        ));
        assert!(matches!(
            gen_piles(&params("{n: 1, losing: 1.0}"), &mut r),
            Err(GenError::Impossible(_))
        ));
        assert!(matches!(
            gen_piles(&params("{layout: wavy}"), &mut r),
            Err(GenError::Param { .. })
        ));
    }

    #[test]
    fn layouts_keep_the_numbers() {
        for layout in ["column", "blank", "messy"] {
            let p = params(&format!(
                "{{n: 20, losing: 0.0, layout: {layout}, eol: false}}"
            ));
            let text = gen_piles(&p, &mut Rng::new(3)).unwrap();
            assert!(!text.ends_with(char::is_whitespace), "{layout}");
            assert_eq!(parse(&text).len(), 20);
        }
    }

    #[test]
    fn compose_hits_the_total() {
        let mut r = Rng::new(5);
        let parts = compose(&mut r, 4_294_967_301, 5, 1, 1_000_000_000).unwrap();
        assert_eq!(parts.iter().sum::<u64>(), 4_294_967_301);
        assert!(parts.iter().all(|a| (1..=1_000_000_000).contains(a)));
        let many = compose(&mut r, 1 << 31, 500, 1, 1_000_000_000).unwrap();
        assert_eq!(many.iter().sum::<u64>(), 1 << 31);
        assert!(
            many.iter().all(|&a| a > 1),
            "balanced, not padded with ones"
        );
        assert!(compose(&mut r, 10, 3, 4, 9).is_none());
    }

    #[test]
    fn multisets_are_complete_and_canonical() {
        assert_eq!(multisets(2, 3).len(), 6);
        assert_eq!(multisets(4, 5).len(), 70);
        assert!(
            multisets(3, 4)
                .iter()
                .all(|p| p.windows(2).all(|w| w[0] <= w[1]))
        );
    }
}
