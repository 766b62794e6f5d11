//! What can be said of any position of a described game: who wins, the
//! winning moves and how many there are, each from theory where theory
//! gives it and from the search on small positions otherwise.
//!
//! Theory used, each checked against the search in the unit tests:
//! - a sum of heaps under normal play, every move changing one heap:
//!   the mover wins exactly when the XOR of the heaps' values is not 0
//!   (Sprague–Grundy), the values from [`super::values`];
//! - misère Nim (take any number from one heap): as normal Nim unless
//!   every heap has at most one token, when the mover wins exactly with
//!   an even number of them (Bouton);
//! - Moore's Nim_k under normal play: the mover loses exactly when, at
//!   every binary digit, the number of heaps with that digit set is a
//!   multiple of `k + 1`;
//! - staircase Nim under normal play: the heaps at odd steps (the first,
//!   third, …) decide, as a Nim position.
//!
//! Anything else (misère sums, Wythoff-like moves, staircase mixed with
//! other moves) is known only where the search can finish.

use std::sync::Mutex;

use super::bound::Bound;
use super::positions::{Search, Step, searchable, steps};
use super::values::HeapValues;
use crate::games::search::Ending;

/// Which theorem decides positions, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theory {
    /// Normal play, moves on one heap: XOR of heap values.
    Sum,
    /// Misère, take any number from one heap.
    MisereNim,
    /// Normal play, at most `k` heaps per move, any amounts.
    Moore(u64),
    /// Normal play, staircase moves only.
    Staircase,
    /// Only the search.
    Search,
}

/// Everything known of one game with its parameters fixed.
pub struct Analysis {
    moves: Bound,
    heap: Option<HeapValues>,
    theory: Theory,
    search: Mutex<Search>,
}

impl Analysis {
    pub fn new(moves: Bound) -> Analysis {
        let heap = HeapValues::of(&moves);
        let only_staircase = moves.staircase
            && !moves.take_any
            && moves.sets.is_empty()
            && moves.up_to == 0
            && moves.fraction.is_none()
            && moves.octal.iter().all(|&d| d == 0)
            && moves.moore == 0
            && !moves.wythoff;
        let theory = match moves.ending {
            Ending::Normal if heap.is_some() => Theory::Sum,
            Ending::Misere
                if heap
                    .as_ref()
                    .is_some_and(|h| *h.known() == super::values::Known::Identity) =>
            {
                Theory::MisereNim
            }
            Ending::Normal
                if moves.moore > 0 && !moves.wythoff && !moves.staircase && !moves.splits() =>
            {
                Theory::Moore(moves.moore)
            }
            Ending::Normal if only_staircase => Theory::Staircase,
            _ => Theory::Search,
        };
        Analysis {
            search: Mutex::new(Search::new(moves.clone())),
            moves,
            heap,
            theory,
        }
    }

    pub fn moves(&self) -> &Bound {
        &self.moves
    }

    pub fn theory(&self) -> Theory {
        self.theory
    }

    /// One heap's values, when every move changes one heap.
    pub fn heap_values(&self) -> Option<&HeapValues> {
        self.heap.as_ref()
    }

    /// The search, for callers that want its own answer (the oracle).
    pub fn with_search<T>(&self, f: impl FnOnce(&mut Search) -> T) -> T {
        let mut s = match self.search.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut s)
    }

    /// Whether the player to move from `p` wins, when theory or the search
    /// can say.
    pub fn mover_wins(&self, p: &[u64]) -> Option<bool> {
        match self.theory {
            Theory::Sum => Some(self.sum_value(p)? != 0),
            Theory::MisereNim => Some(misere_nim_wins(p)),
            Theory::Moore(k) => Some(!moore_loses(p, k)),
            Theory::Staircase => Some(p.iter().step_by(2).fold(0, |x, &a| x ^ a) != 0),
            Theory::Search => searchable(&self.moves, p).then(|| self.with_search(|s| s.wins(p))),
        }
    }

    /// The XOR of the heaps' values (normal play, one-heap moves).
    pub fn sum_value(&self, p: &[u64]) -> Option<u64> {
        let h = self.heap.as_ref()?;
        p.iter().try_fold(0u64, |x, &a| Some(x ^ h.get(a)?))
    }

    /// The steps from `p` that leave the opponent a lost position (one-heap
    /// games). For a heap too large to list its splits, one step per class
    /// of values stands for all that share it.
    pub fn winning_steps(&self, p: &[u64]) -> Option<Vec<Step>> {
        if !self.moves.one_heap() {
            return None;
        }
        match self.theory {
            Theory::Sum => {
                let h = self.heap.as_ref()?;
                let x = self.sum_value(p)?;
                if x == 0 {
                    return Some(Vec::new());
                }
                let mut out = Vec::new();
                for (i, &a) in p.iter().enumerate() {
                    let target = x ^ h.get(a)?;
                    for (left, right) in h.options_to(a, target)? {
                        out.push(Step {
                            heap: i,
                            left,
                            right,
                        });
                    }
                }
                Some(out)
            }
            Theory::MisereNim => {
                let x = p.iter().fold(0, |s, &a| s ^ a);
                let mut out: Vec<Step> = Vec::new();
                for (i, &a) in p.iter().enumerate() {
                    let mut lefts = vec![a ^ x, 0, 1];
                    lefts.sort_unstable();
                    lefts.dedup();
                    for left in lefts.into_iter().filter(|&l| l < a) {
                        let step = Step {
                            heap: i,
                            left,
                            right: 0,
                        };
                        if !misere_nim_wins(&step.apply(p)) {
                            out.push(step);
                        }
                    }
                }
                Some(out)
            }
            _ => {
                if !searchable(&self.moves, p) {
                    return None;
                }
                let all = steps(&self.moves, p);
                Some(
                    self.with_search(|s| {
                        all.into_iter().filter(|st| !s.wins(&st.apply(p))).collect()
                    }),
                )
            }
        }
    }

    /// How many steps from `p` win (each heap and each side counted).
    pub fn count_winning_steps(&self, p: &[u64]) -> Option<u128> {
        if let (Theory::Sum, Some(h)) = (self.theory, &self.heap) {
            let x = self.sum_value(p)?;
            if x == 0 {
                return Some(0);
            }
            let mut n = 0u128;
            for &a in p {
                n += h.count_options_to(a, x ^ h.get(a)?)?;
            }
            return Some(n);
        }
        self.winning_steps(p).map(|s| s.len() as u128)
    }

    /// `i x` (or `i x y`, `i` from 1) as a step of `position`, if legal.
    pub fn legal_step(&self, position: &[u64], mv: &[u64]) -> Result<Step, String> {
        let n = position.len() as u64;
        let i = mv.first().copied().unwrap_or(0);
        if i == 0 || i > n {
            return Err(format!("there is no heap {i} (1 to {n})"));
        }
        let a = position[(i - 1) as usize];
        let (left, right) = (
            mv.get(1).copied().unwrap_or(0),
            mv.get(2).copied().unwrap_or(0),
        );
        let kept = left
            .checked_add(right)
            .filter(|&k| k < a)
            .ok_or_else(|| format!("heap {i} has {a} tokens; a move leaves fewer"))?;
        let k = a - kept;
        let bit = match (left, right) {
            (0, 0) => 1,
            (_, 0) | (0, _) => 2,
            _ => 4,
        };
        if self.moves.mask(a, k) & bit == 0 {
            let what = match bit {
                1 => "take the whole heap",
                2 => "leave one heap",
                _ => "split the heap in two",
            };
            return Err(format!(
                "taking {k} of heap {i}'s {a} tokens to {what} is not a move of this game"
            ));
        }
        Ok(Step {
            heap: (i - 1) as usize,
            left,
            right,
        })
    }

    /// Whether any move is left in `p` (one-heap moves: any heap with a
    /// take; otherwise the successors).
    pub fn has_move(&self, p: &[u64]) -> bool {
        if self.moves.one_heap() {
            p.iter().any(|&a| self.moves.has_move(a))
        } else {
            !super::positions::successors(&self.moves, p).is_empty()
        }
    }

    /// A legal step from `p` drawn at random, taking as many tokens as
    /// allowed more often than not (games stay short); `None` when no
    /// move is left.
    pub fn random_step(&self, p: &[u64], rng: &mut crate::generate::Rng) -> Option<Step> {
        let live: Vec<usize> = (0..p.len())
            .filter(|&i| self.moves.has_move(p[i]))
            .collect();
        let &heap = rng.pick(&live)?;
        let a = p[heap];
        // The largest allowed take, or any allowed one.
        let takes: Vec<(u64, u8)> = self
            .moves
            .takes_sampled(a, rng)
            .into_iter()
            .filter_map(|k| Some((k, self.moves.mask(a, k))).filter(|&(_, m)| m != 0))
            .collect();
        let &(k, mask) = if rng.chance(0.6) {
            takes.last()?
        } else {
            rng.pick(&takes)?
        };
        let r = a - k;
        let mut kinds: Vec<u8> = [1u8, 2, 4].into_iter().filter(|b| mask & b != 0).collect();
        rng.shuffle(&mut kinds);
        Some(match kinds.first()? {
            1 => Step {
                heap,
                left: 0,
                right: 0,
            },
            2 => Step {
                heap,
                left: r,
                right: 0,
            },
            _ => {
                let x = rng.range(1, r - 1);
                Step {
                    heap,
                    left: x,
                    right: r - x,
                }
            }
        })
    }

    /// How answers are known, in a sentence: what `verify` and `grundy
    /// game` say.
    pub fn explain(&self) -> String {
        match self.theory {
            Theory::Sum => {
                let how = self.heap.as_ref().map(HeapValues::explain).unwrap_or_default();
                format!("a sum of heaps: the XOR of the heaps' Grundy values (Sprague–Grundy); {how}")
            }
            Theory::MisereNim => "misère Nim: as normal Nim unless every heap has at most one token, then the mover wins with an even number of them (Bouton)".into(),
            Theory::Moore(k) => format!(
                "Moore's Nim_{k}: the mover loses exactly when, at every binary digit, the number of heaps with that digit set is a multiple of {}",
                k + 1
            ),
            Theory::Staircase => "staircase Nim: the heaps at odd steps (first, third, …) as a Nim position".into(),
            Theory::Search => "no theorem for these rules: positions are decided by exhaustive search only, so only small ones".into(),
        }
    }
}

/// Misère Nim (Bouton): with a heap above one, the normal rule; with
/// single tokens only, the mover wins when their number is even.
pub fn misere_nim_wins(p: &[u64]) -> bool {
    if p.iter().all(|&a| a <= 1) {
        p.iter().filter(|&&a| a == 1).count().is_multiple_of(2)
    } else {
        p.iter().fold(0, |s, &a| s ^ a) != 0
    }
}

/// Moore's theorem: lost for the mover exactly when every binary digit is
/// set in a multiple of `k + 1` heaps.
pub fn moore_loses(p: &[u64], k: u64) -> bool {
    (0..64).all(|bit| {
        let set = p.iter().filter(|&&a| (a >> bit) & 1 == 1).count() as u64;
        set.is_multiple_of(k + 1)
    })
}
