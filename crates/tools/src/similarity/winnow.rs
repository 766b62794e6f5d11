//! Winnowing (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms
//! for document fingerprinting", SIGMOD 2003), the selection MOSS makes.
//!
//! Every run of `k` consecutive tokens (a k-gram) is hashed; of every `w`
//! consecutive hashes the smallest is kept. Two programs that share a run
//! of at least `k + w - 1` tokens are then guaranteed to share a kept hash,
//! while runs shorter than `k` never match: `k` sets the noise floor and
//! `w` the density, about 2 / (w + 1) fingerprints per token.

use super::tokens::{Token, hash_bytes};

/// A kept hash and the index of the first token of its k-gram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint {
    pub hash: u64,
    pub at: usize,
}

/// The fingerprints of a token stream; none when it is shorter than `k`.
pub fn winnow(tokens: &[Token], k: usize, w: usize) -> Vec<Fingerprint> {
    let k = k.max(1);
    let w = w.max(1);
    if tokens.len() < k {
        return Vec::new();
    }
    let grams: Vec<u64> = tokens
        .windows(k)
        .map(|g| {
            g.iter().fold(0xcbf2_9ce4_8422_2325, |h, t| {
                hash_bytes(h, &t.kind.to_le_bytes())
            })
        })
        .collect();
    let mut out: Vec<Fingerprint> = Vec::new();
    let w = w.min(grams.len());
    for start in 0..=grams.len() - w {
        // The rightmost smallest hash of the window, as the paper
        // prescribes, so that a run of equal hashes yields few fingerprints.
        let mut best = start;
        for i in start..start + w {
            if grams[i] <= grams[best] {
                best = i;
            }
        }
        if out.last().is_none_or(|f| f.at != best) {
            out.push(Fingerprint {
                hash: grams[best],
                at: best,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(kinds: &[u64]) -> Vec<Token> {
        kinds
            .iter()
            .map(|&kind| Token {
                kind,
                text: kind,
                first_line: 0,
                last_line: 0,
            })
            .collect()
    }

    #[test]
    fn a_shared_run_of_k_plus_w_minus_1_tokens_shares_a_fingerprint() {
        let (k, w) = (4, 3);
        let common: Vec<u64> = (100..100 + (k + w - 1) as u64).collect();
        let mut a: Vec<u64> = (0..20).collect();
        a.splice(7..7, common.iter().copied());
        let mut b: Vec<u64> = (50..70).collect();
        b.splice(13..13, common.iter().copied());
        let fa = winnow(&toks(&a), k, w);
        let fb = winnow(&toks(&b), k, w);
        assert!(fa.iter().any(|x| fb.iter().any(|y| y.hash == x.hash)));
        let c: Vec<u64> = (200..240).collect();
        let fc = winnow(&toks(&c), k, w);
        assert!(!fa.iter().any(|x| fc.iter().any(|y| y.hash == x.hash)));
    }

    #[test]
    fn short_streams_have_no_fingerprints_and_positions_increase() {
        assert!(winnow(&toks(&[1, 2]), 3, 4).is_empty());
        let f = winnow(&toks(&(0..50).collect::<Vec<_>>()), 5, 4);
        assert!(f.windows(2).all(|p| p[0].at < p[1].at));
        assert!(f.len() >= 46 / 4, "at least one per window");
    }
}
