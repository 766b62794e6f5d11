//! A described game's moves with their parameters fixed: what a heap of
//! `a` tokens allows, in the octal games' terms (how many tokens a move
//! takes, and whether it leaves no heap, one heap or two), plus the moves
//! that touch several heaps.

use crate::games::search::Ending;

/// Rules with their parameters fixed: what the search plays.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bound {
    pub ending: Ending,
    pub take_any: bool,
    /// Amounts of `take: [..]`, sorted.
    pub sets: Vec<u64>,
    /// `take: {max: m}`: 1..=m (0: none).
    pub up_to: u64,
    pub fraction: Option<(u64, u64)>,
    /// The union of the octal codes, `octal[k]` for `k = 0 ..`.
    pub octal: Vec<u8>,
    /// Moore's `k` (0: none).
    pub moore: u64,
    pub wythoff: bool,
    pub staircase: bool,
}

impl Bound {
    /// Whether every move changes exactly one heap.
    pub fn one_heap(&self) -> bool {
        self.moore == 0 && !self.wythoff && !self.staircase
    }

    pub fn splits(&self) -> bool {
        self.octal.iter().any(|d| d & 4 != 0)
    }

    /// Whether the order of heaps matters.
    pub fn ordered(&self) -> bool {
        self.staircase
    }

    /// The ways a one-heap move may take `k` tokens from a heap of `a`:
    /// bit 1 leave no heap (`k = a`), bit 2 one heap, bit 4 two heaps.
    pub fn mask(&self, a: u64, k: u64) -> u8 {
        if k > a {
            return 0;
        }
        let mut m = 0u8;
        if k >= 1 {
            let taken = self.take_any
                || self.sets.binary_search(&k).is_ok()
                || k <= self.up_to
                || self.fraction.is_some_and(|(n, d)| {
                    u128::from(k) * u128::from(d) <= u128::from(a) * u128::from(n)
                });
            if taken {
                m |= 3;
            }
        }
        if let Some(&d) = usize::try_from(k).ok().and_then(|k| self.octal.get(k)) {
            m |= d;
        }
        // Keep only the bits this heap can honour.
        let rest = a - k;
        let mut possible = 0u8;
        if rest == 0 {
            possible |= 1;
        }
        if rest >= 1 && k >= 1 {
            possible |= 2;
        }
        if rest >= 2 {
            possible |= 4;
        }
        m & possible
    }

    /// Every `k` a one-heap move might take from a heap of `a` (each
    /// still to be checked with [`Self::mask`]), in increasing order.
    pub fn takes(&self, a: u64) -> Vec<u64> {
        let max = self.max_take(a);
        if self.take_any || self.fraction.is_some() {
            let mut all: Vec<u64> = (1..=max).collect();
            if self.octal.first().is_some_and(|&d| d != 0) {
                all.insert(0, 0);
            }
            return all;
        }
        let mut ks: Vec<u64> = (1..=self.up_to.min(a)).collect();
        ks.extend(self.sets.iter().copied().filter(|&k| k <= a));
        ks.extend((0..self.octal.len() as u64).filter(|&k| k <= a && self.octal[k as usize] != 0));
        ks.sort_unstable();
        ks.dedup();
        ks
    }

    /// Whether a one-heap move can be made on a heap of `a` (without
    /// listing the takes: `a` may be huge).
    pub fn has_move(&self, a: u64) -> bool {
        if a == 0 {
            return false;
        }
        self.take_any
            || self.up_to >= 1
            || self.sets.first().is_some_and(|&s| s <= a)
            || self
                .fraction
                .is_some_and(|(n, d)| u128::from(a) * u128::from(n) >= u128::from(d))
            || (0..self.octal.len() as u64)
                .filter(|&k| k <= a)
                .any(|k| self.mask(a, k) != 0)
    }

    /// Some takes worth trying from a heap of `a`: all of them when they
    /// are few, else the largest, the smallest and a few drawn between.
    pub fn takes_sampled(&self, a: u64, rng: &mut crate::generate::Rng) -> Vec<u64> {
        let max = self.max_take(a);
        if max <= 64 {
            return self.takes(a);
        }
        let mut ks: Vec<u64> = (0..8).map(|_| rng.range(1, max)).collect();
        ks.extend([1, max]);
        ks.extend(self.sets.iter().copied().filter(|&k| k <= a));
        ks.sort_unstable();
        ks.dedup();
        ks
    }

    /// The most tokens a one-heap move may take from a heap of `a`.
    pub fn max_take(&self, a: u64) -> u64 {
        if self.take_any {
            return a;
        }
        let mut t = self.sets.last().copied().unwrap_or(0).max(self.up_to);
        if let Some((n, d)) = self.fraction {
            t = t.max((u128::from(a) * u128::from(n) / u128::from(d)) as u64);
        }
        t = t.max(self.octal.len().saturating_sub(1) as u64);
        t.min(a)
    }

    /// The largest take of a finite game (`t` of the periodicity theorem),
    /// or `None` when takes grow with the heap (any, fraction).
    pub fn finite_take(&self) -> Option<u64> {
        if self.take_any || self.fraction.is_some() {
            return None;
        }
        let octal = self.octal.iter().rposition(|&d| d != 0).unwrap_or(0) as u64;
        Some(
            self.sets
                .last()
                .copied()
                .unwrap_or(0)
                .max(self.up_to)
                .max(octal),
        )
    }

    /// Whether one-heap moves take from a heap in every amount `1..=m` and
    /// no other way (bounded Nim), with that `m`.
    pub fn plain_up_to(&self) -> Option<u64> {
        if self.take_any || self.fraction.is_some() || self.octal.iter().any(|&d| d != 0) {
            return None;
        }
        let m = self.up_to.max(self.sets.last().copied().unwrap_or(0));
        // The sets are distinct amounts up to `m`: those above `up_to` fill
        // `up_to + 1 ..= m` exactly when there are `m - up_to` of them.
        let above = self.sets.iter().filter(|&&s| s > self.up_to).count() as u64;
        (m > 0 && above == m - self.up_to).then_some(m)
    }
}
