//! Georgia and Bob (the staircase-Nim game of POJ 1704): chessmen stand on
//! distinct cells 1, 2, 3, … of a row. A move shifts one chessman to the left
//! by at least one cell; it may not jump over or land on another chessman and
//! may not leave the row (cell 1 is the leftmost). Whoever cannot move loses.
//!
//! Decided by search over the cells, not by the pairing argument the
//! reference solutions use.

use super::search::{Ending, Solver};

/// Occupied cells in increasing order; the order of the input does not matter.
pub type Position = Vec<u32>;

type MoveFn = fn(&Position) -> Vec<Position>;

/// The positions one move away from `p` (strictly increasing cells, all ≥ 1).
pub fn moves(p: &Position) -> Vec<Position> {
    let mut next = Vec::new();
    for i in 0..p.len() {
        let left = if i == 0 { 0 } else { p[i - 1] };
        for cell in left + 1..p[i] {
            let mut q = p.clone();
            q[i] = cell;
            next.push(q);
        }
    }
    next
}

/// Memoised win/lose answers for chessmen in any order.
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

    /// True when the player to move (Georgia, at the start) wins. `cells` must
    /// be distinct and at least 1.
    pub fn wins(&mut self, cells: &[u32]) -> bool {
        let mut p = cells.to_vec();
        p.sort_unstable();
        self.solver.wins(&p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losing_positions_of_up_to_two_chessmen_in_five_cells() {
        // By hand: a lone chessman on cell 1 cannot move, and two adjacent
        // chessmen lose (every move of the left one can be copied by the right one).
        let mut o = Oracle::new();
        let mut losing = Vec::new();
        for a in 1..=5u32 {
            if !o.wins(&[a]) {
                losing.push(vec![a]);
            }
            for b in a + 1..=5 {
                if !o.wins(&[a, b]) {
                    losing.push(vec![a, b]);
                }
            }
        }
        let want: Vec<Vec<u32>> = vec![vec![1], vec![1, 2], vec![2, 3], vec![3, 4], vec![4, 5]];
        assert_eq!(losing, want);
    }

    #[test]
    fn three_chessmen_examples_worked_by_hand() {
        let mut o = Oracle::new();
        // 1 3 4: the only move is 3 -> 2, after which 4 -> 3 packs everything.
        assert!(!o.wins(&[4, 1, 3]));
        // 2 3 4: moving 2 -> 1 reaches the position above.
        assert!(o.wins(&[2, 3, 4]));
        assert!(!o.wins(&[1, 2, 3]));
    }

    #[test]
    fn chessmen_cannot_pass_each_other() {
        let next = moves(&vec![2, 4]);
        assert_eq!(next, vec![vec![1, 4], vec![2, 3]]);
    }
}
