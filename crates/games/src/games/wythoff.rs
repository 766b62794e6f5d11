//! Wythoff's game: two piles; a move takes any positive number of stones from
//! one pile, or the same positive number from both. Whoever cannot move (both
//! piles empty) loses.
//!
//! Decided by search only, so it can vouch for the Beatty-sequence formula the
//! reference solutions use.

use super::search::{Ending, Solver};

/// Two piles, smaller first, so that `(a, b)` and `(b, a)` share one memo entry.
pub type Position = (u64, u64);

type MoveFn = fn(&Position) -> Vec<Position>;

/// The positions one move away from `p` (which must be ordered).
pub fn moves(&(a, b): &Position) -> Vec<Position> {
    let mut next = Vec::with_capacity((a + a + b) as usize);
    for k in 1..=a {
        next.push(ordered(a - k, b));
        next.push((a - k, b - k));
    }
    for k in 1..=b {
        next.push(ordered(a, b - k));
    }
    next
}

fn ordered(a: u64, b: u64) -> Position {
    if a <= b { (a, b) } else { (b, a) }
}

/// Memoised win/lose answers for Wythoff positions, in either pile order.
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

    /// True when the player to move wins from piles `a` and `b`.
    pub fn wins(&mut self, a: u64, b: u64) -> bool {
        self.solver.wins(&ordered(a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_losing_pairs_match_the_hand_computed_list() {
        // Worked out by hand with a mex table: (0,0) (1,2) (3,5) (4,7) (6,10) (8,13).
        let mut o = Oracle::new();
        let losing: Vec<Position> = (0..=13u64)
            .flat_map(|a| (a..=13).map(move |b| (a, b)))
            .filter(|&(a, b)| !o.wins(a, b))
            .collect();
        assert_eq!(
            losing,
            vec![(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
        );
    }

    #[test]
    fn order_of_the_piles_does_not_matter() {
        let mut o = Oracle::new();
        assert!(!o.wins(5, 3));
        assert!(o.wins(5, 4));
        assert!(o.wins(0, 9));
    }

    #[test]
    fn moves_include_taking_from_both() {
        let next = moves(&(1, 2));
        assert!(next.contains(&(0, 1)));
        assert!(next.contains(&(0, 2)));
        assert!(next.contains(&(1, 1)));
        assert_eq!(next.len(), 4);
        assert!(!next.contains(&(1, 2)));
    }
}
