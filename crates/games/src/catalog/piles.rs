//! Pile-position building blocks shared by the Nim-like problems.
//!
//! Losing positions are rare at random (a random Nim position has nim-sum 0
//! with probability about 1/max), so they are constructed, not sampled.

use crate::generate::Rng;

/// `n` piles, each uniform in `lo..=hi`.
pub fn random(rng: &mut Rng, n: usize, lo: u64, hi: u64) -> Vec<u64> {
    (0..n).map(|_| rng.range(lo, hi)).collect()
}

/// `n` piles in `lo..=hi` whose nim-sum (XOR) is zero, or `None` when that is
/// impossible (a single pile of at least 1) or not found after many tries.
pub fn xor_zero(rng: &mut Rng, n: usize, lo: u64, hi: u64) -> Option<Vec<u64>> {
    if n < 2 {
        return if lo == 0 { Some(vec![0; n]) } else { None };
    }
    for _ in 0..1000 {
        let mut piles = random(rng, n - 1, lo, hi);
        let last = piles.iter().fold(0, |a, b| a ^ b);
        if (lo..=hi).contains(&last) {
            piles.push(last);
            rng.shuffle(&mut piles);
            return Some(piles);
        }
    }
    None
}

/// `n` piles in `lo..=hi` whose nim-sum is not zero, or `None` when every
/// such position has nim-sum zero (an even number of piles all equal to
/// `lo == hi`, or no piles at all).
pub fn xor_nonzero(rng: &mut Rng, n: usize, lo: u64, hi: u64) -> Option<Vec<u64>> {
    let mut piles = random(rng, n, lo, hi);
    if piles.iter().fold(0, |a, b| a ^ b) != 0 {
        return Some(piles);
    }
    // Moving one pile by one stone changes the nim-sum: it becomes non-zero.
    let i = piles.iter().position(|&p| p < hi || p > lo)?;
    piles[i] = if piles[i] < hi {
        piles[i] + 1
    } else {
        piles[i] - 1
    };
    Some(piles)
}

/// Space-separated numbers, the way every catalog format writes a list.
pub fn join(values: &[u64]) -> String {
    let mut s = String::with_capacity(values.len() * 8);
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&v.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_zero_is_zero_and_in_range() {
        let mut r = Rng::new(3);
        for n in 2..20 {
            let p = xor_zero(&mut r, n, 1, 1000).expect("found");
            assert_eq!(p.len(), n);
            assert_eq!(p.iter().fold(0, |a, b| a ^ b), 0);
            assert!(p.iter().all(|&x| (1..=1000).contains(&x)));
        }
        assert!(xor_zero(&mut r, 1, 1, 10).is_none());
    }

    #[test]
    fn xor_nonzero_is_nonzero() {
        let mut r = Rng::new(4);
        for n in 1..20 {
            let p = xor_nonzero(&mut r, n, 1, 7).expect("possible");
            assert_ne!(p.iter().fold(0, |a, b| a ^ b), 0);
            assert!(p.iter().all(|&x| (1..=7).contains(&x)));
        }
        assert_eq!(xor_nonzero(&mut r, 2, 5, 5), None);
        assert_eq!(xor_nonzero(&mut r, 3, 5, 5), Some(vec![5, 5, 5]));
    }
}
