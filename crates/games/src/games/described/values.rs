//! The Grundy values of one heap of a game whose moves each change one
//! heap: what makes a sum of heaps decidable (the XOR of its heaps'
//! values, Sprague–Grundy), for heaps of any size when theory allows.
//!
//! Three ways to know them, each checked against the search of positions
//! in the unit tests:
//! - a formula that follows from the mex by induction: taking any number
//!   from a heap without splitting it gives `G(n) = n`; taking any number
//!   from 1 to `m` gives `G(n) = n mod (m + 1)`;
//! - a finite game (every take at most `t`, no move without a take): the
//!   values computed until a period is proven ([`super::period`]), then
//!   known for every heap;
//! - otherwise the values computed up to a bound, and nothing beyond it.

use super::bound::Bound;
use super::period::{self, Period, Proof};

/// Values computed at first for a finite game, doubled until a period is
/// proven, up to [`FINITE_CAP`] (or [`SPLIT_CAP`] when moves split heaps).
const FIRST_LEN: usize = 256;
const FINITE_CAP: usize = 1 << 16;
const SPLIT_CAP: usize = 1 << 13;
/// Values computed for a game with no period to find (takes that grow
/// with the heap).
const BOUNDED_LEN: usize = 4096;

/// How one heap's values are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Known {
    /// `G(n) = n`.
    Identity,
    /// `G(n) = n mod m`.
    Modulo(u64),
    /// `values[n] = G(n)` for `n < values.len()`, and beyond by the
    /// proven period if there is one.
    Table {
        values: Vec<u64>,
        proof: Option<Proof>,
    },
}

/// One heap's Grundy values under one set of moves.
#[derive(Debug, Clone)]
pub struct HeapValues {
    moves: Bound,
    known: Known,
}

impl HeapValues {
    /// The values of `moves`, which must each change one heap
    /// ([`Bound::one_heap`]); `None` otherwise.
    pub fn of(moves: &Bound) -> Option<HeapValues> {
        if !moves.one_heap() {
            return None;
        }
        let known = if moves.take_any && !moves.splits() {
            Known::Identity
        } else if let Some(m) = moves.plain_up_to() {
            Known::Modulo(m + 1)
        } else if let Some(t) = moves
            .finite_take()
            .filter(|_| moves.octal.first() != Some(&4))
        {
            let cap = if moves.splits() {
                SPLIT_CAP
            } else {
                FINITE_CAP
            };
            let mut len = FIRST_LEN.max((3 * t as usize).min(cap));
            loop {
                let values = table(moves, len);
                let proof = period::find(&values, t);
                if proof.is_some() || len >= cap {
                    break Known::Table { values, proof };
                }
                len = (len * 2).min(cap);
            }
        } else {
            Known::Table {
                values: table(moves, BOUNDED_LEN),
                proof: None,
            }
        };
        Some(HeapValues {
            moves: moves.clone(),
            known,
        })
    }

    pub fn known(&self) -> &Known {
        &self.known
    }

    pub fn moves(&self) -> &Bound {
        &self.moves
    }

    /// `G(n)`, when known.
    pub fn get(&self, n: u64) -> Option<u64> {
        match &self.known {
            Known::Identity => Some(n),
            Known::Modulo(m) => Some(n % m),
            Known::Table { values, proof } => {
                if let Some(&v) = usize::try_from(n).ok().and_then(|i| values.get(i)) {
                    return Some(v);
                }
                let Period { from, length } = proof.as_ref()?.period;
                let i = from + (n - from) % length;
                values.get(i as usize).copied()
            }
        }
    }

    /// The proven period (a closed form `n mod m` is one from 0).
    pub fn period(&self) -> Option<Period> {
        match &self.known {
            Known::Identity => None,
            Known::Modulo(m) => Some(Period {
                from: 0,
                length: *m,
            }),
            Known::Table { proof, .. } => proof.map(|p| p.period),
        }
    }

    pub fn proof(&self) -> Option<&Proof> {
        match &self.known {
            Known::Table { proof, .. } => proof.as_ref(),
            _ => None,
        }
    }

    /// The heaps whose value is known: all (`None`), or those below the bound.
    pub fn known_below(&self) -> Option<u64> {
        match &self.known {
            Known::Table {
                values,
                proof: None,
            } => Some(values.len() as u64),
            _ => None,
        }
    }

    /// How the values are known, in a sentence.
    pub fn explain(&self) -> String {
        match &self.known {
            Known::Identity => "G(n) = n: a heap can be left with any smaller number of tokens, so its options have every value below n (induction on n)".into(),
            Known::Modulo(m) => format!(
                "G(n) = n mod {m}: every take of 1 to {} tokens is allowed, so the options of n have every value below n mod {m} and not n mod {m} itself (induction on n)",
                m - 1
            ),
            Known::Table { proof: Some(p), .. } => format!(
                "period {} from n = {}: {p}",
                p.period.length, p.period.from
            ),
            Known::Table { values, proof: None } => format!(
                "computed for heaps of up to {} tokens; no period proven (no finite largest take, or none found within them)",
                values.len() - 1
            ),
        }
    }

    /// The options `(x, y)` of a heap of `a` whose value is `target`: the
    /// heap is left as heaps of `x` and `y` tokens (`y = 0`: one heap;
    /// both 0: none). Only what can be listed: for a heap whose split
    /// options are too many, one representative per class of values.
    /// `None` when a value needed is unknown.
    pub fn options_to(&self, a: u64, target: u64) -> Option<Vec<(u64, u64)>> {
        self.get(a)?;
        if let Some(r) = self.closed_form_option(a, target) {
            return Some(r.map(|r| vec![(r, 0)]).unwrap_or_default());
        }
        let mut out = Vec::new();
        self.for_each_take(a, |k, mask| {
            let r = a - k;
            if mask & 1 != 0 && target == 0 {
                out.push((0, 0));
            }
            if mask & 2 != 0 && self.get(r)? == target {
                out.push((r, 0));
                if self.moves.splits() {
                    out.push((0, r));
                }
            }
            if mask & 4 != 0 {
                for x in self.split_representatives(r)? {
                    if self.get(x)? ^ self.get(r - x)? == target {
                        out.push((x, r - x));
                    }
                }
            }
            Some(())
        })?;
        Some(out)
    }

    /// How many options of a heap of `a` have value `target`, counting a
    /// split into `x` and `y` and one into `y` and `x` as two moves.
    pub fn count_options_to(&self, a: u64, target: u64) -> Option<u128> {
        self.get(a)?;
        if let Some(r) = self.closed_form_option(a, target) {
            return Some(u128::from(r.is_some()));
        }
        let mut count = 0u128;
        self.for_each_take(a, |k, mask| {
            let r = a - k;
            if mask & 1 != 0 && target == 0 {
                count += 1;
            }
            if mask & 2 != 0 && self.get(r)? == target {
                // Written as the two sides of a row, `r 0` and `0 r` are
                // two moves when heaps may split.
                count += if self.moves.splits() { 2 } else { 1 };
            }
            if mask & 4 != 0 {
                count += self.count_splits(r, target)?;
            }
            Some(())
        })?;
        Some(count)
    }

    /// Under a formula, the one heap left by a move to value `target`:
    /// `Some(Some(r))` (`r = 0`: the heap taken whole), `Some(None)` when
    /// no move reaches it; `None` when the values are a table.
    fn closed_form_option(&self, a: u64, target: u64) -> Option<Option<u64>> {
        match &self.known {
            // Every smaller heap is an option, and `G(r) = r`.
            Known::Identity => Some((target < a).then_some(target)),
            // Options are `a - m ..= a - 1` (at least 0), `m = modulus - 1`:
            // fewer than one full cycle, so at most one has the value.
            Known::Modulo(m) => {
                if a == 0 || target >= *m {
                    return Some(None);
                }
                let below = (a - 1 + m - target) % m;
                if below > a - 1 {
                    return Some(None);
                }
                let r = a - 1 - below;
                Some((r + (m - 1) >= a).then_some(r))
            }
            Known::Table { .. } => None,
        }
    }

    /// Calls `f(k, mask)` for every take `k` allowed from a heap of `a`
    /// (a table's game: its takes are few, or its heaps small).
    fn for_each_take(&self, a: u64, mut f: impl FnMut(u64, u8) -> Option<()>) -> Option<()> {
        for k in self.moves.takes(a) {
            let mask = self.moves.mask(a, k);
            if mask != 0 {
                f(k, mask)?;
            }
        }
        Some(())
    }

    /// The `x` (with `1 ≤ x ≤ r - 1`) worth trying for a split of `r`
    /// tokens: all of them when few, else one per pair of value classes.
    fn split_representatives(&self, r: u64) -> Option<Vec<u64>> {
        if r < 2 {
            return Some(Vec::new());
        }
        let Some(Period { from, length }) = self.period() else {
            // Unknown beyond a bound: only small heaps have every value.
            return (r <= LISTED).then(|| (1..r).collect());
        };
        // A part is at least 1: periodic from 0 is periodic from 1.
        let from = from.max(1);
        let span = 2 * (from + length) + 2;
        if r <= span.max(LISTED) {
            return Some((1..r).collect());
        }
        // x < from and x > r - from are exceptions (listed); in between
        // both parts are periodic, and x's class decides both values.
        let mut xs: Vec<u64> = (1..from.max(1)).collect();
        xs.extend(from..from + length);
        xs.extend((r - from + 1).max(from + length)..r);
        Some(xs)
    }

    /// How many `x` in `1..r` give `G(x) ^ G(r - x) = target`.
    fn count_splits(&self, r: u64, target: u64) -> Option<u128> {
        if r < 2 {
            return Some(0);
        }
        let Some(Period { from, length }) = self.period() else {
            if r > LISTED {
                return None;
            }
            let mut n = 0u128;
            for x in 1..r {
                n += u128::from(self.get(x)? ^ self.get(r - x)? == target);
            }
            return Some(n);
        };
        let from = from.max(1);
        let span = 2 * (from + length) + 2;
        if r <= span.max(LISTED) {
            let mut n = 0u128;
            for x in 1..r {
                n += u128::from(self.get(x)? ^ self.get(r - x)? == target);
            }
            return Some(n);
        }
        let mut n = 0u128;
        // The exceptional ends: x < from, and x > r - from.
        for x in (1..from).chain(r - from + 1..r) {
            n += u128::from(self.get(x)? ^ self.get(r - x)? == target);
        }
        // from ≤ x ≤ r - from: u = x - from in 0..=big, by class.
        let big = r - 2 * from;
        for c in 0..length.min(big + 1) {
            let x = from + c;
            if self.get(x)? ^ self.get(r - x)? == target {
                n += u128::from((big - c) / length + 1);
            }
        }
        Some(n)
    }

    /// A heap in `lo..=hi` whose value is `v`, the `pick`-th of those the
    /// classes allow (wrapping), or `None` if no heap there has it.
    pub fn heap_with_value(&self, v: u64, lo: u64, hi: u64, pick: u64) -> Option<u64> {
        if lo > hi {
            return None;
        }
        match &self.known {
            Known::Identity => (lo..=hi).contains(&v).then_some(v),
            Known::Modulo(m) => {
                if v >= *m {
                    return None;
                }
                let first = lo + (v + m - lo % m) % m;
                if first > hi {
                    return None;
                }
                let count = (hi - first) / m + 1;
                Some(first + (pick % count) * m)
            }
            Known::Table { values, proof } => {
                // Heaps listed one by one: below the period's start, or
                // every computed heap when there is no period.
                let listed_end = proof.map_or(values.len() as u64, |p| p.period.from);
                let found: Vec<u64> = (lo..listed_end.min(hi.saturating_add(1)))
                    .filter(|&n| values[n as usize] == v)
                    .collect();
                // Then each class of the period holding `v`: its first heap
                // at or above `lo` and how many there are up to `hi`.
                let mut classes: Vec<(u64, u64)> = Vec::new();
                if let Some(p) = proof {
                    let Period { from, length } = p.period;
                    let start = lo.max(from);
                    for c in (0..length).filter(|&c| values[(from + c) as usize] == v) {
                        let first =
                            start + ((from + c) % length + length - start % length) % length;
                        if start <= hi && first <= hi {
                            classes.push((first, (hi - first) / length + 1));
                        }
                    }
                }
                let total =
                    found.len() as u128 + classes.iter().map(|&(_, n)| u128::from(n)).sum::<u128>();
                if total == 0 {
                    return None;
                }
                let mut i = u128::from(pick) % total;
                if i < found.len() as u128 {
                    return Some(found[i as usize]);
                }
                i -= found.len() as u128;
                let length = proof.map_or(1, |p| p.period.length);
                for (first, n) in classes {
                    if i < u128::from(n) {
                        return Some(first + (i as u64) * length);
                    }
                    i -= u128::from(n);
                }
                None
            }
        }
    }
}

/// Heaps up to this size have their options listed one by one.
const LISTED: u64 = 4096;

/// `G(0) … G(len - 1)` by the mex of each heap's options.
pub fn table(moves: &Bound, len: usize) -> Vec<u64> {
    let mut g = vec![0u64; len];
    let mut stamp: Vec<usize> = vec![usize::MAX; 64];
    for a in 1..len {
        let mark = |v: u64, stamp: &mut Vec<usize>| {
            let v = v as usize;
            if v < (1 << 24) {
                if v >= stamp.len() {
                    stamp.resize((v + 1).next_power_of_two(), usize::MAX);
                }
                stamp[v] = a;
            }
        };
        let au = a as u64;
        for k in moves.takes(au) {
            let mask = moves.mask(au, k);
            if mask == 0 {
                continue;
            }
            let r = (au - k) as usize;
            if mask & 1 != 0 {
                mark(0, &mut stamp);
            }
            if mask & 2 != 0 {
                mark(g[r], &mut stamp);
            }
            if mask & 4 != 0 {
                for x in 1..=r / 2 {
                    mark(g[x] ^ g[r - x], &mut stamp);
                }
            }
        }
        g[a] = stamp.iter().position(|&s| s != a).unwrap_or(stamp.len()) as u64;
    }
    g
}
