//! Catalog entry for `bounded-nim`: `n k`, then `n` piles; a move takes
//! 1..k stones from one pile, last taker wins; `Alice` when the first player
//! wins, else `Bob`.

use super::kit::{
    Style, TRIES, nim_sum, outcome, random_piles, range_within, render, values_within, xor_to,
};
use super::{Entry, Family};
use crate::generate::{GenError, Params, Rng};

const N_LIMIT: (u64, u64) = (1, 100_000);
const K_LIMIT: (u64, u64) = (1, 1_000_000_000);
const A_LIMIT: (u64, u64) = (1, 1_000_000_000);

pub const ENTRY: Entry = Entry {
    id: "bounded-nim",
    families: &[
        Family {
            name: "bounded-nim-piles",
            about: "one bounded Nim position: n (1..10^5) piles in min..max (1..10^9), bound k \
                (1..10^9); knobs losing, plain_trap (plain Nim gets it wrong), layout, eol",
            generate: gen_piles,
        },
        Family {
            name: "bounded-nim-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::bounded_nim(), params, rng)
            },
        },
    ],
    // problems/bounded-nim/problem.yaml describes the game (`game:`): it gives
    // the input format, the oracle and the answers.
    coded: None,
};

struct Knobs {
    n: (u64, u64),
    k: (u64, u64),
    vals: (u64, u64),
    losing: bool,
    /// Plain Nim (ignoring the bound) must get this position wrong.
    trap: bool,
}

fn gen_piles(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&[
        "n",
        "k",
        "min",
        "max",
        "losing",
        "plain_trap",
        "layout",
        "eol",
    ])?;
    let knobs = Knobs {
        n: range_within(params, "n", N_LIMIT, N_LIMIT)?,
        k: range_within(params, "k", K_LIMIT, K_LIMIT)?,
        vals: values_within(params, A_LIMIT, A_LIMIT)?,
        losing: rng.chance(params.f64_or("losing", 0.5)?),
        trap: rng.chance(params.f64_or("plain_trap", 0.0)?),
    };
    let style = Style::read(params)?;
    let (k, piles) = draw(rng, &knobs)?;
    Ok(render(&[vec![piles.len() as u64, k], piles], style, rng))
}

/// The nim-sum of pile sizes modulo `k + 1`: zero exactly on lost
/// positions. Generators steer by it; the tests check it against search.
fn residue_sum(piles: &[u64], k: u64) -> u64 {
    piles.iter().fold(0, |x, &a| x ^ (a % (k + 1)))
}

fn draw(rng: &mut Rng, knobs: &Knobs) -> Result<(u64, Vec<u64>), GenError> {
    let (lo, hi) = knobs.vals;
    for _ in 0..TRIES {
        let k = rng.range(knobs.k.0, knobs.k.1);
        let count = rng.range(knobs.n.0, knobs.n.1) as usize;
        let piles = if knobs.losing {
            residues_to_zero(rng, count, lo, hi, k)
        } else if knobs.trap {
            xor_to(rng, count, lo, hi, 0)
        } else {
            Some(random_piles(rng, count, lo, hi))
        };
        let Some(piles) = piles else { continue };
        let lost = residue_sum(&piles, k) == 0;
        let plain_lost = nim_sum(&piles) == 0;
        if lost == knobs.losing && !(knobs.trap && plain_lost == lost) {
            return Ok((k, piles));
        }
    }
    Err(GenError::Impossible(format!(
        "no {} position{} with {}..={} piles of {lo}..={hi} and k in {}..={}",
        outcome(knobs.losing),
        if knobs.trap {
            " that plain Nim gets wrong"
        } else {
            ""
        },
        knobs.n.0,
        knobs.n.1,
        knobs.k.0,
        knobs.k.1
    )))
}

/// `n` piles in `lo..=hi` whose residues modulo `k + 1` have nim-sum zero;
/// the last pile is picked among the sizes with the residue needed.
fn residues_to_zero(rng: &mut Rng, n: usize, lo: u64, hi: u64, k: u64) -> Option<Vec<u64>> {
    let step = k + 1;
    let mut piles = random_piles(rng, n.checked_sub(1)?, lo, hi);
    let need = residue_sum(&piles, k);
    if need > k {
        return None;
    }
    let first = lo + (need + step - lo % step) % step;
    if first > hi {
        return None;
    }
    piles.push(first + step * rng.range(0, (hi - first) / step));
    rng.shuffle(&mut piles);
    Some(piles)
}

#[cfg(test)]
mod tests {
    use super::super::kit::test_support::{inputs, numbers, params};
    use super::*;
    use crate::games::nim::NimOracle;

    fn parse(input: &str) -> (u64, Vec<u64>) {
        let t = numbers(input);
        assert_eq!(t[0] as usize, t.len() - 2, "n matches the pile count");
        let (k, piles) = (t[1], t[2..].to_vec());
        assert!((1..=100_000).contains(&piles.len()));
        assert!((1..=1_000_000_000).contains(&k));
        assert!(piles.iter().all(|a| (1..=1_000_000_000).contains(a)));
        (k, piles)
    }

    #[test]
    fn piles_respect_the_constraints() {
        let yaml = "{n: [0, 200000], k: [0, 2000000000], min: 0, max: 5000000000}";
        for input in inputs(gen_piles, yaml, 0..6) {
            parse(&input);
        }
        for input in inputs(gen_piles, "{n: [1, 50], k: [1, 5], plain_trap: 1.0}", 0..20) {
            parse(&input);
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        let p = params("{n: [1, 100], k: [1, 10], layout: messy}");
        let a = gen_piles(&p, &mut Rng::new(6)).unwrap();
        assert_eq!(a, gen_piles(&p, &mut Rng::new(6)).unwrap());
        assert_ne!(a, gen_piles(&p, &mut Rng::new(7)).unwrap());
    }

    #[test]
    fn losing_construction_loses_by_search() {
        for (yaml, wins) in [
            ("{n: [1, 3], k: [1, 4], max: 7, losing: 1.0}", false),
            ("{n: [1, 3], k: [1, 4], max: 7, losing: 0.0}", true),
            (
                "{n: [2, 3], k: [1, 3], max: 7, losing: 1.0, plain_trap: 1.0}",
                false,
            ),
            (
                "{n: [2, 3], k: [1, 3], max: 7, losing: 0.0, plain_trap: 1.0}",
                true,
            ),
        ] {
            for input in inputs(gen_piles, yaml, 0..30) {
                let (k, piles) = parse(&input);
                let mut oracle = NimOracle::bounded(k);
                assert_eq!(
                    oracle.first_player_wins(&piles),
                    wins,
                    "{yaml}: {k} {piles:?}"
                );
            }
        }
    }

    #[test]
    fn plain_trap_fools_plain_nim() {
        let mut plain = NimOracle::normal();
        for input in inputs(
            gen_piles,
            "{n: [2, 3], k: [1, 3], max: 7, plain_trap: 1.0}",
            0..30,
        ) {
            let (k, piles) = parse(&input);
            let mut bounded = NimOracle::bounded(k);
            assert_ne!(
                plain.first_player_wins(&piles),
                bounded.first_player_wins(&piles)
            );
        }
    }

    #[test]
    fn impossible_knobs_are_errors() {
        // With k at least every pile, bounded Nim is plain Nim: no trap exists.
        let p = params("{n: 3, k: 100, max: 50, plain_trap: 1.0}");
        assert!(matches!(
            gen_piles(&p, &mut Rng::new(0)),
            Err(GenError::Impossible(_))
        ));
        assert!(gen_piles(&params("{m: 3}"), &mut Rng::new(0)).is_err());
    }
}
