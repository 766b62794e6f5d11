//! Catalog entry for `wythoff-large`: Wythoff's game with piles up to 10^18,
//! at most 10^5 lines `a b`; one `1`/`0` per line.
//!
//! The generators are those of `wythoff` with wider bounds: at this size even
//! an 80-bit `long double` rounds `⌊kφ⌋` wrongly next to Fibonacci numbers,
//! and `5k²` no longer fits in 64 bits.

use super::wythoff::{Bounds, gen_pairs, gen_traps, oracle_inputs};
use super::{Coded, Entry, Family, OracleCase, tokens_match};
use crate::generate::{GenError, Params, Rng};

pub const ENTRY: Entry = Entry {
    id: "wythoff-large",
    families: &[
        Family {
            name: "wythoff-large-pairs",
            about: "random lines `a b` up to 10^18: constructed losing pairs, near misses, random pairs",
            generate: pairs,
        },
        Family {
            name: "wythoff-large-traps",
            about: "losing pairs next to Fibonacci numbers up to 10^18, where long double rounds wrongly",
            generate: traps,
        },
        Family {
            name: "wythoff-large-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::wythoff_large(), params, rng)
            },
        },
    ],
    coded: Some(Coded {
        format: super::format::wythoff_large,
        oracle_cases,
        accepts: tokens_match,
    }),
};

const BOUNDS: Bounds = Bounds {
    max_value: 1_000_000_000_000_000_000,
    max_lines: 100_000,
    trap_bits: 64,
};

fn pairs(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    gen_pairs(params, rng, BOUNDS)
}

fn traps(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    gen_traps(params, rng, BOUNDS)
}

fn oracle_cases() -> Vec<OracleCase> {
    oracle_inputs(60, 0x10_18)
}

#[cfg(test)]
mod tests {
    use super::super::wythoff::tests::{params, parse_pairs};
    use super::super::wythoff::{cold_pair, is_cold, isqrt};
    use super::*;

    #[test]
    fn pairs_respect_constraints_and_are_deterministic() {
        for seed in 0..5 {
            for yaml in [
                "{}",
                "{lines: 100000, layout: messy}",
                "{min: 999999999999999000, losing: 0}",
            ] {
                let p = params(yaml);
                let a = pairs(&p, &mut Rng::new(seed)).expect("generates");
                assert_eq!(a, pairs(&p, &mut Rng::new(seed)).expect("generates"));
                let got = parse_pairs(&a, BOUNDS);
                if yaml.contains("min") {
                    assert!(
                        got.iter()
                            .all(|&(x, y)| x >= 999_999_999_999_999_000 && y >= x.min(y))
                    );
                }
            }
        }
    }

    #[test]
    fn constructed_losing_pairs_are_really_losing_at_the_top() {
        let p = params("{lines: 1000, losing: 1.0, min: 100000000000000000}");
        let got = parse_pairs(&pairs(&p, &mut Rng::new(2)).expect("ok"), BOUNDS);
        for (a, b) in got {
            // Losing exactly when the difference k gives back the smaller pile.
            let (lo, hi) = (a.min(b), a.max(b));
            assert_eq!(cold_pair(hi - lo), (lo, hi));
        }
    }

    #[test]
    fn too_big_values_are_refused() {
        let p = params("{max: 1000000000000000001}");
        assert!(pairs(&p, &mut Rng::new(1)).is_err());
    }

    /// `⌊kφ⌋` with φ rounded to 62 fractional bits, about the precision of an
    /// 80-bit `long double`.
    fn fixed_point_says_cold(a: u64, b: u64) -> bool {
        let (a, b) = (a.min(b), a.max(b));
        let phi_62 = ((1u128 << 62) + isqrt(5 << 124)) / 2;
        ((u128::from(b - a) * phi_62) >> 62) as u64 == a
    }

    #[test]
    fn traps_catch_a_long_double_precision_formula() {
        let input = traps(&params("{lines: 3000}"), &mut Rng::new(8)).expect("ok");
        let got = parse_pairs(&input, BOUNDS);
        let fooled = got
            .iter()
            .filter(|&&(a, b)| fixed_point_says_cold(a, b) != is_cold(a, b))
            .count();
        assert!(fooled >= 20, "only {fooled} pairs fool 62-bit precision");
    }

    #[test]
    fn oracle_cases_are_all_small_pairs() {
        let cases = oracle_cases();
        let n: usize = cases
            .iter()
            .map(|c| parse_pairs(&c.input, BOUNDS).len())
            .sum();
        assert_eq!(n, 61 * 61);
    }
}
