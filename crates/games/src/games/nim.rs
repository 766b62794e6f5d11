//! Nim and two relatives, by their definitions: a move takes stones from
//! exactly one pile; normal play, misère play (taking the last stone loses)
//! and bounded Nim (at most `k` stones per move).
//!
//! The oracle only knows the moves; whether a position is won is left to the
//! exhaustive search, so it can check formula-based solutions without sharing
//! their assumptions.

use super::search::{Ending, Solver};

/// Pile sizes; the order of piles does not matter.
pub type Piles = Vec<u64>;

type MoveFn = Box<dyn Fn(&Piles) -> Vec<Piles>>;

/// Sorted and without empty piles, so that one position has one memo key
/// however its piles were listed.
pub fn canonical(piles: &[u64]) -> Piles {
    let mut p: Piles = piles.iter().copied().filter(|&a| a > 0).collect();
    p.sort_unstable();
    p
}

/// Every position reachable by taking between 1 and `limit` stones from one
/// pile. Equal piles give the same positions, so only the first is tried.
fn take_from_one(piles: &Piles, limit: u64) -> Vec<Piles> {
    let mut out = Vec::new();
    for (i, &a) in piles.iter().enumerate() {
        if i > 0 && piles[i - 1] == a {
            continue;
        }
        for take in 1..=a.min(limit) {
            let mut q = piles.clone();
            q[i] = a - take;
            out.push(canonical(&q));
        }
    }
    out
}

/// Decides Nim positions by search; one oracle per rule set, because its
/// memo is only valid for the moves and ending it was built with.
pub struct NimOracle {
    solver: Solver<Piles, MoveFn>,
    /// Most stones one move may take.
    limit: u64,
}

impl NimOracle {
    /// Normal play: the player who cannot move (no stones left) loses.
    pub fn normal() -> Self {
        Self::with(Ending::Normal, u64::MAX)
    }

    /// Misère play: whoever takes the last stone loses.
    pub fn misere() -> Self {
        Self::with(Ending::Misere, u64::MAX)
    }

    /// Normal play where one move takes at most `k` stones (`k >= 1`).
    pub fn bounded(k: u64) -> Self {
        Self::with(Ending::Normal, k.max(1))
    }

    fn with(ending: Ending, limit: u64) -> Self {
        let moves: MoveFn = Box::new(move |p: &Piles| take_from_one(p, limit));
        NimOracle {
            solver: Solver::new(ending, moves),
            limit,
        }
    }

    /// True when the player to move wins with best play from `piles`.
    pub fn first_player_wins(&mut self, piles: &[u64]) -> bool {
        self.solver.wins(&canonical(piles))
    }

    /// The moves `(i, x)` (0-based pile, stones left) that leave a losing
    /// position, in pile order then by `x`; only takes allowed by this
    /// oracle's rule count.
    pub fn winning_moves(&mut self, piles: &[u64]) -> Vec<(usize, u64)> {
        let mut found = Vec::new();
        for (i, &a) in piles.iter().enumerate() {
            for x in a.saturating_sub(self.limit)..a {
                let mut after = piles.to_vec();
                after[i] = x;
                if !self.first_player_wins(&after) {
                    found.push((i, x));
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_moves_respect_the_move_bound() {
        // Taking 1 or 2 from one pile: multiples of 3 lose. From 5 only
        // 5 -> 3 wins; emptying the pile is not a legal move.
        assert_eq!(NimOracle::bounded(2).winning_moves(&[5]), vec![(0, 3)]);
        assert_eq!(NimOracle::normal().winning_moves(&[5]), vec![(0, 0)]);
        assert_eq!(NimOracle::normal().winning_moves(&[1, 2, 3]), vec![]);
    }

    #[test]
    fn canonical_ignores_order_and_empty_piles() {
        assert_eq!(canonical(&[3, 0, 1, 2]), vec![1, 2, 3]);
        assert_eq!(canonical(&[0, 0]), Vec::<u64>::new());
    }

    #[test]
    fn moves_take_from_exactly_one_pile() {
        let mut got = take_from_one(&vec![2, 2], u64::MAX);
        got.sort();
        assert_eq!(got, vec![vec![1, 2], vec![2]]);
        assert_eq!(take_from_one(&vec![5], 2), vec![vec![4], vec![3]]);
    }

    #[test]
    fn normal_play_known_positions() {
        let mut o = NimOracle::normal();
        // Losing positions worked out by hand (mirror strategies and
        // the classic 1-2-3 position).
        for p in [
            &[1, 1][..],
            &[2, 2],
            &[1, 2, 3],
            &[1, 4, 5],
            &[2, 4, 6],
            &[3, 5, 6],
            &[1, 1, 2, 2],
        ] {
            assert!(!o.first_player_wins(p), "{p:?} should lose");
        }
        for p in [&[1][..], &[7], &[1, 2], &[1, 1, 1], &[2, 3, 4], &[1, 2, 4]] {
            assert!(o.first_player_wins(p), "{p:?} should win");
        }
        assert!(!o.first_player_wins(&[]));
    }

    #[test]
    fn misere_play_known_positions() {
        let mut o = NimOracle::misere();
        // An odd number of single stones loses: every move hands over an
        // even number of them and the opponent is forced to take the last.
        for p in [&[1][..], &[1, 1, 1], &[2, 2], &[1, 2, 3], &[3, 3]] {
            assert!(!o.first_player_wins(p), "{p:?} should lose");
        }
        for p in [&[1, 1][..], &[2], &[1, 1, 2], &[1, 1, 1, 1], &[2, 3]] {
            assert!(o.first_player_wins(p), "{p:?} should win");
        }
        // Facing no stones means the opponent took the last one.
        assert!(o.first_player_wins(&[]));
    }

    #[test]
    fn misere_and_normal_differ_only_on_single_stones() {
        let mut normal = NimOracle::normal();
        let mut misere = NimOracle::misere();
        assert_ne!(
            normal.first_player_wins(&[1, 1]),
            misere.first_player_wins(&[1, 1])
        );
        assert_eq!(
            normal.first_player_wins(&[1, 1, 2]),
            misere.first_player_wins(&[1, 1, 2])
        );
    }

    #[test]
    fn bounded_play_known_positions() {
        // Taking one stone at a time, a single pile is lost exactly when even.
        let mut one = NimOracle::bounded(1);
        let lost: Vec<u64> = (1..9).filter(|&n| !one.first_player_wins(&[n])).collect();
        assert_eq!(lost, vec![2, 4, 6, 8]);
        // With at most 2 per move, 3 stones lose (both replies leave 1 or 2).
        let mut two = NimOracle::bounded(2);
        assert!(!two.first_player_wins(&[3]));
        assert!(two.first_player_wins(&[4]));
        assert!(!two.first_player_wins(&[3, 3]));
        // Plain Nim calls [3] won; here it is lost, so [3, 1] is won by
        // emptying the single stone.
        assert!(two.first_player_wins(&[3, 1]));
        let mut three = NimOracle::bounded(3);
        assert!(!three.first_player_wins(&[4]));
        assert!(three.first_player_wins(&[4, 1]));
        assert!(!three.first_player_wins(&[4, 4]));
    }

    #[test]
    fn bounded_with_a_large_bound_is_plain_nim() {
        let mut normal = NimOracle::normal();
        let mut loose = NimOracle::bounded(100);
        for a in 1..6 {
            for b in a..6 {
                for c in b..6 {
                    let p = [a, b, c];
                    assert_eq!(normal.first_player_wins(&p), loose.first_player_wins(&p));
                }
            }
        }
    }
}
