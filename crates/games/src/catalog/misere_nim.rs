//! Catalog entry for `misere-nim`: `n`, then `n` piles of up to 10^9;
//! taking the last stone loses; `X` when the first player wins, else `Y`.

use super::kit::{
    PileKnobs, Rule, Style, TRIES, compose, draw_parity, draw_position, outcome, range_within,
    render,
};
use super::{Entry, Family};
use crate::generate::{GenError, Params, Rng};

const N_LIMIT: (u64, u64) = (1, 100_000);
const A_LIMIT: (u64, u64) = (1, 1_000_000_000);

pub const ENTRY: Entry = Entry {
    id: "misere-nim",
    families: &[
        Family {
            name: "misere-nim-piles",
            about: "one misère Nim position: n (1..10^5) piles in min..max (1..10^9); \
                    knobs losing, ones (single stones only), trap (single stones at \
                    both ends), layout, eol",
            generate: gen_piles,
        },
        Family {
            name: "misere-nim-overflow",
            about: "piles whose total is n plus `wraps` times 2^32, so a 32-bit total \
                    looks like 'all single stones'; knobs n, losing, wraps, layout, eol",
            generate: gen_overflow,
        },
        Family {
            name: "misere-nim-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::large_piles(), params, rng)
            },
        },
    ],
    // problems/misere-nim/problem.yaml describes the game (`game:`): it gives
    // the input format, the oracle and the answers.
    coded: None,
};

fn gen_piles(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["n", "min", "max", "losing", "ones", "trap", "layout", "eol"])?;
    let knobs = PileKnobs::read(params, N_LIMIT, A_LIMIT)?;
    let style = Style::read(params)?;
    let piles = draw_position(rng, &knobs, Rule::Misere)?;
    Ok(render(&[vec![piles.len() as u64], piles], style, rng))
}

/// A 32-bit total equal to `n` sends a program testing "total == n" down
/// the all-single-stones branch, which wins exactly for even `n`; the pile
/// count is chosen so that this branch gives the wrong answer.
fn gen_overflow(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["n", "losing", "wraps", "layout", "eol"])?;
    let n = range_within(params, "n", (6, 100), N_LIMIT)?;
    let losing = rng.chance(params.f64_or("losing", 0.5)?);
    let wraps = params.u64_or("wraps", 1)?.max(1);
    let style = Style::read(params)?;
    for _ in 0..TRIES {
        let Some(count) = draw_parity(rng, n, !losing) else {
            break;
        };
        let total = count + (wraps << 32);
        if let Some(piles) = overflow_piles(rng, count, total, losing) {
            return Ok(render(&[vec![count], piles], style, rng));
        }
    }
    Err(GenError::Impossible(format!(
        "no {} position with {}..={} piles totalling n + {wraps} * 2^32 \
         (losing needs an even n, winning an odd n, at least 5 either way)",
        outcome(losing),
        n.0,
        n.1
    )))
}

/// Losing: equal pairs (nim-sum zero). Winning: pairs plus one odd pile,
/// which is then the nim-sum.
fn overflow_piles(rng: &mut Rng, count: u64, total: u64, losing: bool) -> Option<Vec<u64>> {
    let (single, pairs) = if losing {
        (None, count / 2)
    } else {
        let odd = 2 * rng.range(0, (A_LIMIT.1 - 1) / 2) + 1;
        (Some(odd), (count - 1) / 2)
    };
    let rest = total - single.unwrap_or(0);
    let halves = compose(rng, rest / 2, pairs, A_LIMIT.0, A_LIMIT.1)?;
    let mut piles: Vec<u64> = halves.iter().flat_map(|&h| [h, h]).collect();
    piles.extend(single);
    rng.shuffle(&mut piles);
    Some(piles)
}

#[cfg(test)]
mod tests {
    use super::super::kit::nim_sum;
    use super::super::kit::test_support::{inputs, numbers, params};
    use super::*;
    use crate::games::nim::NimOracle;

    fn parse(input: &str) -> Vec<u64> {
        let t = numbers(input);
        assert_eq!(t[0] as usize, t.len() - 1, "n matches the pile count");
        let piles = t[1..].to_vec();
        assert!((1..=100_000).contains(&piles.len()));
        assert!(piles.iter().all(|a| (1..=1_000_000_000).contains(a)));
        piles
    }

    #[test]
    fn families_respect_the_constraints() {
        for input in inputs(
            gen_piles,
            "{n: [1, 150000], min: 0, trap: 0.3, ones: 0.2}",
            0..8,
        ) {
            parse(&input);
        }
        for input in inputs(gen_overflow, "{n: [5, 200000], wraps: 3}", 0..8) {
            parse(&input);
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        let p = params("{n: [1, 50], trap: 0.5, layout: column}");
        assert_eq!(
            gen_piles(&p, &mut Rng::new(8)).unwrap(),
            gen_piles(&p, &mut Rng::new(8)).unwrap()
        );
        let q = params("{n: [6, 50]}");
        assert_eq!(
            gen_overflow(&q, &mut Rng::new(8)).unwrap(),
            gen_overflow(&q, &mut Rng::new(8)).unwrap()
        );
    }

    #[test]
    fn losing_construction_loses_by_search() {
        let mut oracle = NimOracle::misere();
        let cases = [
            ("{n: [1, 4], max: 6, losing: 1.0}", false),
            ("{n: [1, 4], max: 6, losing: 0.0}", true),
            ("{n: [1, 5], losing: 1.0, ones: 1.0}", false),
            ("{n: [1, 5], losing: 0.0, ones: 1.0}", true),
            ("{n: [3, 5], max: 5, losing: 1.0, trap: 1.0}", false),
            ("{n: [3, 5], max: 5, losing: 0.0, trap: 1.0}", true),
        ];
        for (yaml, wins) in cases {
            for input in inputs(gen_piles, yaml, 0..25) {
                let piles = parse(&input);
                assert_eq!(oracle.first_player_wins(&piles), wins, "{yaml}: {piles:?}");
            }
        }
    }

    #[test]
    fn trap_positions_fool_an_end_pile_check() {
        for input in inputs(gen_piles, "{n: [3, 9], max: 6, trap: 1.0}", 0..30) {
            let piles = parse(&input);
            assert_eq!(piles[0], 1);
            assert_eq!(piles[piles.len() - 1], 1);
            assert!(piles.iter().any(|&a| a > 1));
            let as_if_single_stones = piles.len().is_multiple_of(2);
            assert_ne!(Rule::Misere.first_wins(&piles), as_if_single_stones);
        }
    }

    #[test]
    fn overflow_totals_wrap_to_the_pile_count() {
        for (seed, input) in inputs(gen_overflow, "{n: [6, 40]}", 0..20)
            .iter()
            .enumerate()
        {
            let piles = parse(input);
            let n = piles.len() as u64;
            let total: u64 = piles.iter().sum();
            assert_eq!(total % (1 << 32), n, "seed {seed}");
            assert!(total > 1 << 32);
            // Pairs cancel: the nim-sum is zero exactly for even counts,
            // the ones that must be losing.
            assert_eq!(nim_sum(&piles) == 0, n.is_multiple_of(2));
        }
        assert!(gen_overflow(&params("{n: 4, losing: 1.0}"), &mut Rng::new(0)).is_err());
    }
}
