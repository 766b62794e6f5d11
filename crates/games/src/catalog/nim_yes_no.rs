//! Catalog entry for `nim-yes-no` (AcWing 891): `n`, then `n` piles of up
//! to 10^9; `Yes` when the first player wins normal-play Nim, else `No`.

use super::kit::{
    PileKnobs, Rule, Style, TRIES, draw_position, outcome, range_within, render, values_within,
    xor_to,
};
use super::{Entry, Family};
use crate::generate::{GenError, Params, Rng};

const N_LIMIT: (u64, u64) = (1, 100_000);
const A_LIMIT: (u64, u64) = (1, 1_000_000_000);
/// Values from here up share their top bit, so nim-sums stay in the low bits.
const HIGH_HALF: u64 = 1 << 29;

pub const ENTRY: Entry = Entry {
    id: "nim-yes-no",
    families: &[
        Family {
            name: "nim-yes-no-piles",
            about: "one Nim position: n (1..10^5) piles in min..max (1..10^9); \
                    knobs losing, ones, even_sum, layout, eol",
            generate: gen_piles,
        },
        Family {
            name: "nim-yes-no-xor-bits",
            about: "large piles whose nim-sum is 0 (losing) or lives only in `bits` bits \
                    starting at bit `shift`; against truncated or rounded pile values",
            generate: gen_xor_bits,
        },
        Family {
            name: "nim-yes-no-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::large_piles(), params, rng)
            },
        },
    ],
    // problems/nim-yes-no/problem.yaml describes the game (`game:`): it gives
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

fn gen_xor_bits(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&[
        "n", "min", "max", "losing", "bits", "shift", "layout", "eol",
    ])?;
    let n = range_within(params, "n", (2, 1000), N_LIMIT)?;
    let (lo, hi) = values_within(params, (HIGH_HALF, A_LIMIT.1), A_LIMIT)?;
    let losing = rng.chance(params.f64_or("losing", 0.5)?);
    let bits = params.u64_or("bits", 6)?;
    let shift = params.u64_or("shift", 0)?;
    if bits == 0 || bits + shift > 30 {
        return Err(GenError::Impossible(format!(
            "`bits` {bits} from `shift` {shift} must be at least 1 and stay below bit 30"
        )));
    }
    let target = if losing {
        0
    } else {
        rng.range(1, (1 << bits) - 1) << shift
    };
    let style = Style::read(params)?;
    for _ in 0..TRIES {
        let count = rng.range(n.0, n.1) as usize;
        if let Some(piles) = xor_to(rng, count, lo, hi, target) {
            return Ok(render(&[vec![piles.len() as u64], piles], style, rng));
        }
    }
    Err(GenError::Impossible(format!(
        "no {} position with {}..={} piles of {lo}..={hi} and nim-sum {target} found \
         (with min >= 2^29 the pile count must be even)",
        outcome(losing),
        n.0,
        n.1
    )))
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
        t[1..].to_vec()
    }

    fn within_limits(piles: &[u64]) -> bool {
        (1..=100_000).contains(&piles.len())
            && piles.iter().all(|a| (1..=1_000_000_000).contains(a))
    }

    #[test]
    fn families_respect_the_constraints() {
        for input in inputs(gen_piles, "{n: [1, 200000], max: 2000000000}", 0..6) {
            assert!(within_limits(&parse(&input)));
        }
        for input in inputs(gen_xor_bits, "{n: [2, 50]}", 0..20) {
            assert!(within_limits(&parse(&input)));
        }
        for input in inputs(
            gen_xor_bits,
            "{n: [2, 50], min: 0, bits: 4, shift: 20}",
            0..20,
        ) {
            assert!(within_limits(&parse(&input)));
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        let p = params("{n: [1, 100], layout: messy}");
        assert_eq!(
            gen_piles(&p, &mut Rng::new(4)).unwrap(),
            gen_piles(&p, &mut Rng::new(4)).unwrap()
        );
        let q = params("{n: 10, bits: 3}");
        assert_eq!(
            gen_xor_bits(&q, &mut Rng::new(4)).unwrap(),
            gen_xor_bits(&q, &mut Rng::new(4)).unwrap()
        );
    }

    #[test]
    fn losing_construction_loses_by_search() {
        let mut oracle = NimOracle::normal();
        for input in inputs(gen_piles, "{n: [1, 4], max: 7, losing: 1.0}", 0..40) {
            assert!(!oracle.first_player_wins(&parse(&input)), "{input}");
        }
        for input in inputs(gen_piles, "{n: [1, 4], max: 7, losing: 0.0}", 0..40) {
            assert!(oracle.first_player_wins(&parse(&input)), "{input}");
        }
    }

    #[test]
    fn xor_bits_puts_the_nim_sum_where_asked() {
        for input in inputs(
            gen_xor_bits,
            "{n: [2, 40], losing: 0.0, bits: 3, shift: 0}",
            0..20,
        ) {
            let piles = parse(&input);
            assert!((1..8).contains(&nim_sum(&piles)));
            assert!(piles.iter().all(|&a| a >= 1 << 29));
        }
        for input in inputs(
            gen_xor_bits,
            "{n: 6, min: 1, losing: 0.0, bits: 2, shift: 20}",
            0..20,
        ) {
            let x = nim_sum(&parse(&input));
            assert!(x != 0 && x.is_multiple_of(1 << 20) && x < 1 << 22);
        }
        for input in inputs(gen_xor_bits, "{n: 4, losing: 1.0}", 0..10) {
            assert_eq!(nim_sum(&parse(&input)), 0);
        }
        // Small piles, so the search can confirm the construction.
        let mut oracle = NimOracle::normal();
        for input in inputs(
            gen_xor_bits,
            "{n: 3, min: 1, max: 7, losing: 1.0, bits: 1}",
            0..20,
        ) {
            assert!(!oracle.first_player_wins(&parse(&input)));
        }
    }

    #[test]
    fn bad_bit_knobs_are_errors() {
        let mut r = Rng::new(1);
        assert!(gen_xor_bits(&params("{bits: 0}"), &mut r).is_err());
        assert!(gen_xor_bits(&params("{bits: 10, shift: 25}"), &mut r).is_err());
        assert!(gen_xor_bits(&params("{n: 3, losing: 1.0}"), &mut r).is_err());
    }
}
