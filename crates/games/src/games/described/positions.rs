//! Positions of a described game and the exhaustive search over them:
//! the oracle that knows no formula, only the moves.
//!
//! A position is a list of heaps. Unless the order matters (staircase),
//! it is kept sorted without empty heaps, so that one position has one
//! memo entry however it was written.

use std::collections::HashMap;

use super::bound::Bound;
use crate::games::search::Ending;

/// The search is exhaustive, so it only takes positions it can finish:
/// at most this many tokens in all (also its recursion depth)…
const MAX_TOKENS: u64 = 1000;
/// …and at most this many positions below them (the product of the
/// heaps' sizes plus one), fewer for moves on several heaps, whose every
/// position has many more successors, and for splits, whose positions
/// are partitions of the tokens.
const MAX_SPAN_ONE_HEAP: u64 = 200_000;
const MAX_SPAN_SEVERAL: u64 = 5_000;
const MAX_TOKENS_SPLITTING: u64 = 30;

/// The position as the search keys it.
pub fn canonical(moves: &Bound, p: &[u64]) -> Vec<u64> {
    if moves.ordered() {
        return p.to_vec();
    }
    let mut q: Vec<u64> = p.iter().copied().filter(|&a| a > 0).collect();
    q.sort_unstable();
    q
}

/// Whether the search can decide `p` in reasonable time and depth.
pub fn searchable(moves: &Bound, p: &[u64]) -> bool {
    let tokens = p.iter().fold(0u64, |s, &a| s.saturating_add(a));
    if tokens > MAX_TOKENS {
        return false;
    }
    if moves.splits() {
        return tokens <= MAX_TOKENS_SPLITTING;
    }
    let span = p
        .iter()
        .fold(1u64, |s, &a| s.saturating_mul(a.saturating_add(1)));
    span <= if moves.one_heap() {
        MAX_SPAN_ONE_HEAP
    } else {
        MAX_SPAN_SEVERAL
    }
}

/// One move of a game whose moves each change one heap: heap `heap`
/// (from 0) is left as heaps of `left` and `right` tokens (`right` is 0
/// unless the heap is split; both 0: the heap is gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    pub heap: usize,
    pub left: u64,
    pub right: u64,
}

impl Step {
    /// The position after the step: the heap keeps `left` and `right`
    /// becomes a new last heap when it is not empty.
    pub fn apply(&self, p: &[u64]) -> Vec<u64> {
        let mut q = p.to_vec();
        q[self.heap] = self.left;
        if self.right > 0 {
            q.push(self.right);
        }
        q
    }
}

/// Every one-heap step from `p`, each written once: in a game whose
/// heaps may split, `x y` and `y x` are both listed (the two sides of a
/// row), including `r 0` and `0 r`.
pub fn steps(moves: &Bound, p: &[u64]) -> Vec<Step> {
    let mut out = Vec::new();
    let row = moves.splits();
    for (i, &a) in p.iter().enumerate() {
        for k in moves.takes(a) {
            let mask = moves.mask(a, k);
            let r = a - k;
            if mask & 1 != 0 {
                out.push(Step {
                    heap: i,
                    left: 0,
                    right: 0,
                });
            }
            if mask & 2 != 0 {
                out.push(Step {
                    heap: i,
                    left: r,
                    right: 0,
                });
                if row {
                    out.push(Step {
                        heap: i,
                        left: 0,
                        right: r,
                    });
                }
            }
            if mask & 4 != 0 {
                for x in 1..r {
                    out.push(Step {
                        heap: i,
                        left: x,
                        right: r - x,
                    });
                }
            }
        }
    }
    out
}

/// Every position one move away from `p`, canonical, each once.
pub fn successors(moves: &Bound, p: &[u64]) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = Vec::new();
    let ordered = moves.ordered();
    // One-heap moves: equal heaps give the same positions (unordered).
    for (i, &a) in p.iter().enumerate() {
        if !ordered && i > 0 && p[i - 1] == a {
            continue;
        }
        for k in moves.takes(a) {
            let mask = moves.mask(a, k);
            let r = a - k;
            let with = |parts: &[u64]| {
                let mut q = p.to_vec();
                if ordered {
                    q[i] = parts.iter().sum();
                } else {
                    q.remove(i);
                    q.extend(parts.iter().copied().filter(|&x| x > 0));
                }
                q
            };
            if mask & 1 != 0 {
                out.push(with(&[]));
            }
            if mask & 2 != 0 {
                out.push(with(&[r]));
            }
            if mask & 4 != 0 {
                for x in 1..=r / 2 {
                    out.push(with(&[x, r - x]));
                }
            }
        }
    }
    if moves.moore > 0 {
        moore(p, moves.moore, &mut out);
    }
    if moves.wythoff {
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                for d in 1..=p[i].min(p[j]) {
                    let mut q = p.to_vec();
                    q[i] -= d;
                    q[j] -= d;
                    out.push(q);
                }
            }
        }
    }
    if moves.staircase {
        for i in 0..p.len() {
            for d in 1..=p[i] {
                let mut q = p.to_vec();
                q[i] -= d;
                if i > 0 {
                    q[i - 1] += d;
                }
                out.push(q);
            }
        }
    }
    let mut out: Vec<Vec<u64>> = out.into_iter().map(|q| canonical(moves, &q)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Moore's moves: at least one token from each of 1 to `k` heaps.
fn moore(p: &[u64], k: u64, out: &mut Vec<Vec<u64>>) {
    fn go(
        p: &[u64],
        i: usize,
        left: u64,
        cur: &mut Vec<u64>,
        changed: bool,
        out: &mut Vec<Vec<u64>>,
    ) {
        if i == p.len() {
            if changed {
                out.push(cur.clone());
            }
            return;
        }
        cur.push(p[i]);
        go(p, i + 1, left, cur, changed, out);
        cur.pop();
        if left > 0 {
            for b in 0..p[i] {
                cur.push(b);
                go(p, i + 1, left - 1, cur, true, out);
                cur.pop();
            }
        }
    }
    go(p, 0, k, &mut Vec::with_capacity(p.len()), false, out);
}

/// The memoised search: who wins, and normal-play Grundy values.
pub struct Search {
    moves: Bound,
    wins: HashMap<Vec<u64>, bool>,
    grundy: HashMap<Vec<u64>, u64>,
}

impl Search {
    pub fn new(moves: Bound) -> Search {
        Search {
            moves,
            wins: HashMap::new(),
            grundy: HashMap::new(),
        }
    }

    pub fn moves(&self) -> &Bound {
        &self.moves
    }

    /// Whether the player to move from `p` wins with best play, under the
    /// game's ending.
    pub fn wins(&mut self, p: &[u64]) -> bool {
        let key = canonical(&self.moves, p);
        if let Some(&w) = self.wins.get(&key) {
            return w;
        }
        let next = successors(&self.moves, &key);
        let w = if next.is_empty() {
            self.moves.ending == Ending::Misere
        } else {
            next.iter().any(|q| !self.wins(q))
        };
        self.wins.insert(key, w);
        w
    }

    /// The normal-play Grundy value of `p`: the mex of its successors'.
    pub fn grundy(&mut self, p: &[u64]) -> u64 {
        let key = canonical(&self.moves, p);
        if let Some(&g) = self.grundy.get(&key) {
            return g;
        }
        let mut seen: Vec<u64> = successors(&self.moves, &key)
            .iter()
            .map(|q| self.grundy(q))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        let g = seen
            .iter()
            .enumerate()
            .find(|&(i, &v)| v != i as u64)
            .map_or(seen.len() as u64, |(i, _)| i as u64);
        self.grundy.insert(key, g);
        g
    }
}
