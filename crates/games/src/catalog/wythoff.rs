//! Catalog entry for `wythoff` (POJ 1067): lines `a b` until end of input,
//! 0 ≤ a, b ≤ 10^9, at most 10^5 lines; one `1`/`0` per line.
//!
//! Also home of what `wythoff-large` shares with it: the exact losing pairs
//! used to construct tests and the pair generators.

use std::collections::BTreeSet;

use super::text_layout::{Layout, read_layout, render};
use super::{Coded, Entry, Family, OracleCase, tokens_match};
use crate::games::wythoff::Oracle;
use crate::generate::{GenError, Params, Rng};

pub const ENTRY: Entry = Entry {
    id: "wythoff",
    families: &[
        Family {
            name: "wythoff-pairs",
            about: "random lines `a b`: constructed losing pairs, near misses and random pairs",
            generate: pairs,
        },
        Family {
            name: "wythoff-traps",
            about: "losing pairs next to Fibonacci numbers, where floating-point formulas round wrongly",
            generate: traps,
        },
        Family {
            name: "wythoff-extremes",
            about: super::extremes::ABOUT,
            generate: |params, rng| {
                super::extremes::generate(&super::format::wythoff(), params, rng)
            },
        },
    ],
    coded: Some(Coded {
        format: super::format::wythoff,
        oracle_cases,
        accepts: tokens_match,
    }),
};

/// The constraints of one of the two Wythoff problems.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    pub max_value: u64,
    pub max_lines: u64,
    /// Mantissa bits of the floating-point formula the traps aim at.
    pub trap_bits: u64,
}

const BOUNDS: Bounds = Bounds {
    max_value: 1_000_000_000,
    max_lines: 100_000,
    trap_bits: 53,
};

fn pairs(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    gen_pairs(params, rng, BOUNDS)
}

fn traps(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    gen_traps(params, rng, BOUNDS)
}

fn oracle_cases() -> Vec<OracleCase> {
    oracle_inputs(30, 0x1067)
}

// ---------------------------------------------------------------------------
// Exact losing pairs (for constructing tests; the oracle never uses them).

/// Largest `x` with `x * x <= n`; exact for every `n` below 2^127.
pub(crate) fn isqrt(n: u128) -> u128 {
    let mut x = (n as f64).sqrt() as u128;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// The `k`-th losing pair `(⌊kφ⌋, ⌊kφ⌋ + k)`, computed without rounding error:
/// `⌊kφ⌋ = ⌊(k + ⌊√(5k²)⌋) / 2⌋`. Exact for `k < 2^62`.
pub(crate) fn cold_pair(k: u64) -> (u64, u64) {
    let k = u128::from(k);
    let a = (k + isqrt(5 * k * k)) / 2;
    (a as u64, (a + k) as u64)
}

/// Whether `(a, b)` (in either order) is a losing pair.
pub(crate) fn is_cold(a: u64, b: u64) -> bool {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    cold_pair(b - a).0 == a
}

/// The smallest `k` for which `pred(k)` holds, given that it is monotone on
/// `0..=hi` and holds at `hi`.
fn first_k(hi: u64, pred: impl Fn(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (0, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) { hi = mid } else { lo = mid + 1 }
    }
    lo
}

/// The indices `k` whose losing pair lies within `min..=max`, if any.
pub(crate) fn cold_range(min: u64, max: u64) -> Option<(u64, u64)> {
    let kmin = first_k(max + 1, |k| k > max || cold_pair(k).0 >= min);
    let kend = first_k(max + 1, |k| k > max || cold_pair(k).1 > max);
    (kmin < kend).then(|| (kmin, kend - 1))
}

// ---------------------------------------------------------------------------
// Generators shared with `wythoff-large`.

fn bounded(key: &str, value: u64, limit: u64) -> Result<u64, GenError> {
    if value > limit {
        return Err(GenError::Impossible(format!(
            "`{key}` is {value}, above the constraint {limit}"
        )));
    }
    Ok(value)
}

fn line_count(params: &Params, rng: &mut Rng, b: Bounds) -> Result<usize, GenError> {
    let (lo, hi) = params.range_or("lines", (1, 100))?;
    if lo == 0 {
        return Err(GenError::Impossible(
            "an input needs at least one line".into(),
        ));
    }
    bounded("lines", hi, b.max_lines)?;
    Ok(rng.range(lo, hi) as usize)
}

fn write_pair(a: u64, b: u64, swap: f64, rng: &mut Rng) -> String {
    let (small, large) = if a <= b { (a, b) } else { (b, a) };
    if rng.chance(swap) {
        format!("{large} {small}")
    } else {
        format!("{small} {large}")
    }
}

/// A winning pair one or two stones away from a losing one.
pub(crate) fn near_miss(rng: &mut Rng, ks: (u64, u64), min: u64, max: u64) -> Option<(u64, u64)> {
    for _ in 0..20 {
        let (a, b) = cold_pair(rng.range(ks.0, ks.1));
        let d = rng.range(1, 2);
        let up = rng.chance(0.5);
        let shift = |x: u64| {
            if up {
                x.checked_add(d)
            } else {
                x.checked_sub(d)
            }
        };
        let (a2, b2) = match rng.range(0, 2) {
            0 => (shift(a)?, b),
            1 => (a, shift(b)?),
            _ => (shift(a)?, shift(b)?),
        };
        let inside = |x: u64| (min..=max).contains(&x);
        if inside(a2) && inside(b2) && !is_cold(a2, b2) {
            return Some((a2, b2));
        }
    }
    None
}

/// `wythoff-pairs`: knobs `lines`, `min`, `max`, `losing` (share of
/// constructed losing pairs), `near` (share of the others that are one or
/// two stones off a losing pair), `swap` (share written larger pile first),
/// `layout`.
pub(crate) fn gen_pairs(params: &Params, rng: &mut Rng, b: Bounds) -> Result<String, GenError> {
    params.only(&["lines", "min", "max", "losing", "near", "swap", "layout"])?;
    let max = bounded("max", params.u64_or("max", b.max_value)?, b.max_value)?;
    let min = params.u64_or("min", 0)?;
    if min > max {
        return Err(GenError::Impossible(format!(
            "min {min} is above max {max}"
        )));
    }
    let losing = params.f64_or("losing", 0.5)?;
    let near = params.f64_or("near", 0.3)?;
    let swap = params.f64_or("swap", 0.5)?;
    let layout = read_layout(params)?;
    let ks = cold_range(min, max);
    if ks.is_none() && losing > 0.0 {
        return Err(GenError::Impossible(format!(
            "no losing pair has both piles in {min}..={max}"
        )));
    }
    let lines = line_count(params, rng, b)?;
    let mut out = Vec::with_capacity(lines);
    for _ in 0..lines {
        let (x, y) = match ks {
            Some(ks) if rng.chance(losing) => cold_pair(rng.range(ks.0, ks.1)),
            Some(ks) if rng.chance(near) => near_miss(rng, ks, min, max)
                .unwrap_or_else(|| (rng.range(min, max), rng.range(min, max))),
            _ => (rng.range(min, max), rng.range(min, max)),
        };
        out.push(write_pair(x, y, swap, rng));
    }
    Ok(render(&out, layout, rng))
}

/// Indices `k = F_i + F_j + F_l` (terms optional, indices at least
/// `min_index`) whose losing pair fits under `max` and for which `kφ` is so
/// close to an integer that a formula computed with a `bits`-bit mantissa may
/// round `⌊kφ⌋` to the wrong side.
///
/// Since `F_i·φ − F_(i+1) = (−1)^(i+1)·φ^(−i)`, the distance of `kφ` from the
/// integer `F_(i+1) + F_(j+1) + F_(l+1)` is the sum of those tiny terms.
pub(crate) fn fibonacci_ks(min_index: usize, bits: u32, max: u64) -> Vec<u64> {
    let mut fib: Vec<u64> = vec![0, 1];
    while let Some(next) = fib[fib.len() - 1].checked_add(fib[fib.len() - 2]) {
        fib.push(next);
    }
    // Only correctly rounded operations (no `powi`), so that every machine
    // keeps the same candidates.
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut inverse_powers = vec![1.0f64; fib.len()];
    for i in 1..fib.len() {
        inverse_powers[i] = inverse_powers[i - 1] / phi;
    }
    // Index 0 stands for an absent term (F_0 = 0 adds nothing).
    let indices: Vec<usize> = std::iter::once(0)
        .chain(min_index.max(2)..fib.len())
        .collect();
    let offset = |i: usize| match i {
        0 => 0.0,
        _ if i % 2 == 1 => inverse_powers[i],
        _ => -inverse_powers[i],
    };
    let ulp = (0..bits).fold(1.0f64, |x, _| x / 2.0);
    let mut ks = BTreeSet::new();
    for (x, &i) in indices.iter().enumerate() {
        for (y, &j) in indices.iter().enumerate().skip(x) {
            for &l in &indices[y..] {
                let Some(k) = fib[i]
                    .checked_add(fib[j])
                    .and_then(|s| s.checked_add(fib[l]))
                else {
                    continue;
                };
                if k == 0 || k >= 1 << 61 || cold_pair(k).1 > max {
                    continue;
                }
                let distance = (offset(i) + offset(j) + offset(l)).abs();
                let rounding = 4.0 * (k as f64) * phi * ulp;
                if bits == 0 || distance < rounding {
                    ks.insert(k);
                }
            }
        }
    }
    ks.into_iter().collect()
}

/// `wythoff-traps`: knobs `lines`, `max`, `min_index` (smallest Fibonacci
/// index used, default 20), `bits` (mantissa bits of the formula to trap,
/// default that of a `double` for `wythoff` and a `long double` for
/// `wythoff-large`; 0 keeps every candidate), `swap`, `layout`.
/// Each chosen `k` gives its losing pair and the two winning pairs one stone
/// off along the diagonal, which a wrongly rounded `⌊kφ⌋` mistakes for it.
pub(crate) fn gen_traps(params: &Params, rng: &mut Rng, b: Bounds) -> Result<String, GenError> {
    params.only(&["lines", "max", "min_index", "bits", "swap", "layout"])?;
    let max = bounded("max", params.u64_or("max", b.max_value)?, b.max_value)?;
    let min_index = params.u64_or("min_index", 20)?.min(100) as usize;
    let bits = params.u64_or("bits", b.trap_bits)?.min(200) as u32;
    let swap = params.f64_or("swap", 0.5)?;
    let layout = read_layout(params)?;
    let ks = fibonacci_ks(min_index, bits, max);
    if ks.is_empty() {
        return Err(GenError::Impossible(format!(
            "no sum of Fibonacci numbers from index {min_index} fits under max {max} \
             close enough to trap {bits}-bit arithmetic"
        )));
    }
    let lines = line_count(params, rng, b)?;
    let mut out = Vec::with_capacity(lines);
    while out.len() < lines {
        let Some(&k) = rng.pick(&ks) else { break };
        let (a, c) = cold_pair(k);
        let mut trio = vec![(a, c)];
        if c < max {
            trio.push((a + 1, c + 1));
        }
        if a > 0 {
            trio.push((a - 1, c - 1));
        }
        for (x, y) in trio {
            if out.len() < lines {
                out.push(write_pair(x, y, swap, rng));
            }
        }
    }
    rng.shuffle(&mut out);
    Ok(render(&out, layout, rng))
}

/// Every pair with both piles up to `limit`, decided by the oracle and split
/// over three inputs laid out plainly, messily and without a final newline.
pub(crate) fn oracle_inputs(limit: u64, seed: u64) -> Vec<OracleCase> {
    let mut oracle = Oracle::new();
    let mut rng = Rng::new(seed);
    let layouts = [Layout::Plain, Layout::Messy, Layout::NoFinalNewline];
    let all: Vec<(u64, u64)> = (0..=limit)
        .flat_map(|a| (0..=limit).map(move |b| (a, b)))
        .collect();
    let per = all.len().div_ceil(layouts.len());
    all.chunks(per)
        .zip(layouts)
        .map(|(chunk, layout)| {
            let lines: Vec<String> = chunk.iter().map(|(a, b)| format!("{a} {b}")).collect();
            let expected: String = chunk
                .iter()
                .map(|&(a, b)| if oracle.wins(a, b) { "1\n" } else { "0\n" })
                .collect();
            OracleCase {
                input: render(&lines, layout, &mut rng),
                expected,
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Parses an input back into pairs, checking the constraints on the way.
    pub(crate) fn parse_pairs(input: &str, b: Bounds) -> Vec<(u64, u64)> {
        let tokens: Vec<u64> = input
            .split_ascii_whitespace()
            .map(|t| t.parse().expect("a number"))
            .collect();
        assert_eq!(tokens.len() % 2, 0, "odd number of values");
        assert!(!tokens.is_empty());
        assert!(tokens.len() as u64 / 2 <= b.max_lines);
        assert!(tokens.iter().all(|&v| v <= b.max_value));
        assert!(
            input
                .bytes()
                .all(|c| c == b' ' || c == b'\n' || c.is_ascii_digit())
        );
        tokens.chunks(2).map(|c| (c[0], c[1])).collect()
    }

    pub(crate) fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).expect("test params")
    }

    #[test]
    fn exact_cold_pairs_agree_with_the_search() {
        let mut o = Oracle::new();
        for a in 0..=40 {
            for b in 0..=40 {
                assert_eq!(is_cold(a, b), !o.wins(a, b), "({a}, {b})");
            }
        }
    }

    #[test]
    fn cold_pair_is_exact_next_to_a_double_rounding_error() {
        // F_40 = 102334155: kφ lies just below the integer F_41 = 165580141,
        // so ⌊kφ⌋ = 165580140 even though kφ in double precision reaches F_41.
        assert_eq!(cold_pair(102_334_155).0, 165_580_140);
        assert_eq!(
            isqrt(u128::from(u64::MAX) * 4),
            2 * u128::from(u32::MAX) + 1
        );
        assert_eq!(isqrt(99), 9);
    }

    #[test]
    fn pairs_respect_constraints_and_are_deterministic() {
        for seed in 0..6 {
            for yaml in [
                "{}",
                "{lines: [1, 3000], layout: messy}",
                "{max: 0, lines: 5}",
                "{lines: 100000, layout: no-final-newline}",
            ] {
                let p = params(yaml);
                let a = gen_pairs(&p, &mut Rng::new(seed), BOUNDS).expect("generates");
                let b = gen_pairs(&p, &mut Rng::new(seed), BOUNDS).expect("generates");
                assert_eq!(a, b);
                parse_pairs(&a, BOUNDS);
            }
        }
    }

    #[test]
    fn constructed_losing_pairs_lose_by_search() {
        let mut o = Oracle::new();
        let p = params("{lines: 400, max: 30, losing: 0.5, near: 1.0}");
        let input = gen_pairs(&p, &mut Rng::new(9), BOUNDS).expect("generates");
        let pairs = parse_pairs(&input, BOUNDS);
        let losing = pairs.iter().filter(|&&(a, b)| !o.wins(a, b)).count();
        // Half are constructed losing pairs; near misses and random pairs win.
        assert!((150..=250).contains(&losing), "{losing} of 400 losing");
        assert!(pairs.iter().all(|&(a, b)| a <= 30 && b <= 30));
    }

    #[test]
    fn bad_knobs_are_errors() {
        let mut r = Rng::new(1);
        assert!(gen_pairs(&params("{lnes: 3}"), &mut r, BOUNDS).is_err());
        assert!(gen_pairs(&params("{max: 2000000000}"), &mut r, BOUNDS).is_err());
        assert!(gen_pairs(&params("{lines: 100001}"), &mut r, BOUNDS).is_err());
        assert!(gen_pairs(&params("{min: 9, max: 8}"), &mut r, BOUNDS).is_err());
        assert!(gen_pairs(&params("{layout: fancy}"), &mut r, BOUNDS).is_err());
        assert!(gen_traps(&params("{max: 5}"), &mut r, BOUNDS).is_err());
    }

    /// `⌊kφ⌋` the way a contestant writes it in C with doubles.
    fn double_formula_says_cold(a: u64, b: u64) -> bool {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        let k = (b - a) as f64;
        (k * (1.0 + 5f64.sqrt()) / 2.0) as u64 == a
    }

    #[test]
    fn traps_catch_the_double_formula() {
        let input = gen_traps(&params("{lines: 300}"), &mut Rng::new(3), BOUNDS).expect("ok");
        let pairs = parse_pairs(&input, BOUNDS);
        assert_eq!(pairs.len(), 300);
        let fooled = pairs
            .iter()
            .filter(|&&(a, b)| double_formula_says_cold(a, b) != is_cold(a, b))
            .count();
        assert!(fooled >= 10, "only {fooled} pairs fool the double formula");
        let losing = pairs.iter().filter(|&&(a, b)| is_cold(a, b)).count();
        assert!((80..=120).contains(&losing), "{losing} losing");
    }

    #[test]
    fn oracle_cases_cover_every_small_pair() {
        let cases = oracle_cases();
        let pairs: Vec<_> = cases
            .iter()
            .flat_map(|c| parse_pairs(&c.input, BOUNDS))
            .collect();
        assert_eq!(pairs.len(), 31 * 31);
        let answers: Vec<&str> = cases
            .iter()
            .flat_map(|c| c.expected.split_whitespace())
            .collect();
        assert_eq!(answers.len(), pairs.len());
        let zeros = answers.iter().filter(|&&x| x == "0").count();
        // (0,0) and the pairs (1,2) … (18,29) with their mirrors.
        assert_eq!(zeros, 1 + 2 * 11);
    }
}
