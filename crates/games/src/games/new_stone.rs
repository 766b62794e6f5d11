//! A New Stone Game (POJ 1740): piles of stones in a row. A move picks one
//! pile, removes at least one stone from it, and may then hand any number of
//! the stones still in that pile (possibly none) to other piles that still
//! have stones. Whoever cannot move (no stones left) loses.
//!
//! Decided by search; the total number of stones drops with every move, so
//! the search ends even though single piles can grow.

use std::collections::BTreeSet;

use super::search::{Ending, Solver};

/// The non-empty piles in increasing order: empty piles take no further part
/// in the game and the row order never matters for a move.
pub type Position = Vec<u32>;

type MoveFn = fn(&Position) -> Vec<Position>;

/// The positions one move away from `p` (sorted, without empty piles).
pub fn moves(p: &Position) -> Vec<Position> {
    let mut next = BTreeSet::new();
    for i in 0..p.len() {
        if i > 0 && p[i] == p[i - 1] {
            continue; // the same move from an equal pile
        }
        let others: Vec<u32> = p
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &v)| v)
            .collect();
        for left in 0..p[i] {
            for given in 0..=left {
                let kept = left - given;
                let mut piles = others.clone();
                distribute(&mut piles, 0, given, kept, &mut next);
            }
        }
    }
    next.into_iter().collect()
}

/// Every way to add `given` more stones to `piles[from..]`; the chosen pile
/// keeps `kept` stones.
fn distribute(
    piles: &mut Vec<u32>,
    from: usize,
    given: u32,
    kept: u32,
    out: &mut BTreeSet<Position>,
) {
    if from + 1 >= piles.len() {
        if from < piles.len() {
            piles[from] += given;
        } else if given > 0 {
            return; // stones can only go to piles that exist
        }
        let mut q = piles.clone();
        if kept > 0 {
            q.push(kept);
        }
        q.sort_unstable();
        out.insert(q);
        if from < piles.len() {
            piles[from] -= given;
        }
        return;
    }
    for g in 0..=given {
        piles[from] += g;
        distribute(piles, from + 1, given - g, kept, out);
        piles[from] -= g;
    }
}

/// Memoised win/lose answers for piles in any order.
pub struct Oracle {
    solver: Solver<Position, MoveFn>,
}

impl Default for Oracle {
    fn default() -> Self {
        Self::new()
    }
}

impl Oracle {
    pub fn new() -> Self {
        Oracle {
            solver: Solver::new(Ending::Normal, moves as MoveFn),
        }
    }

    /// True when the player to move wins; empty piles are allowed and ignored.
    pub fn wins(&mut self, piles: &[u32]) -> bool {
        let mut p: Position = piles.iter().copied().filter(|&v| v > 0).collect();
        p.sort_unstable();
        self.solver.wins(&p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_moves_of_the_statement_example_are_there() {
        // POJ 1740's example: from 3 1 4 2, taking one stone from the first
        // pile and handing stones to others reaches, among others, these.
        let next = moves(&vec![1, 2, 3, 4]);
        for want in [
            vec![2, 1, 4, 2],
            vec![1, 1, 5, 2],
            vec![2, 5, 2],
            vec![1, 4, 4],
            vec![1, 4, 2],
        ] {
            let mut w = want.clone();
            w.sort_unstable();
            assert!(next.contains(&w), "missing {want:?}");
        }
        // Stones never appear from nowhere, and every move removes at least one.
        assert!(next.iter().all(|q| q.iter().sum::<u32>() < 10));
        // Nothing goes to a pile that is not there: at most four piles remain.
        assert!(next.iter().all(|q| q.len() <= 4));
        assert!(!next.contains(&vec![1, 2, 3, 4]));
    }

    #[test]
    fn small_positions_worked_by_hand() {
        let mut o = Oracle::new();
        assert!(!o.wins(&[]));
        assert!(o.wins(&[1]));
        assert!(o.wins(&[7]));
        // Either move from 1 1 leaves a single pile, which the opponent takes.
        assert!(!o.wins(&[1, 1]));
        // 1 2: take one from the 2 to reach 1 1.
        assert!(o.wins(&[2, 1]));
        // 2 2: the moves reach 1 2, 2 and 3, all winning for the opponent.
        assert!(!o.wins(&[2, 2]));
        assert!(o.wins(&[1, 1, 1]));
    }

    #[test]
    fn mirrored_piles_lose() {
        // Copying the opponent's move on the twin pile is a winning reply, so
        // piles that pair up equally are losing for the player to move.
        let mut o = Oracle::new();
        assert!(!o.wins(&[1, 2, 1, 2]));
        assert!(!o.wins(&[3, 3]));
        assert!(o.wins(&[1, 2, 3]));
    }
}
