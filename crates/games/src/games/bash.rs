//! The Bash game by its definition: one pile of `n` stones, a move takes
//! between 1 and `m` of them, and whoever takes the last stone wins.

use super::search::{Ending, Solver};

type MoveFn = Box<dyn Fn(&u64) -> Vec<u64>>;

/// Decides Bash positions for one move bound `m` by search; the memo is only
/// valid for that bound, so each `m` gets its own oracle.
pub struct BashOracle {
    solver: Solver<u64, MoveFn>,
}

impl BashOracle {
    /// The game where one move takes 1..=`max_take` stones (`max_take >= 1`).
    pub fn new(max_take: u64) -> Self {
        let limit = max_take.max(1);
        let moves: MoveFn = Box::new(move |&n: &u64| (1..=n.min(limit)).map(|t| n - t).collect());
        BashOracle {
            solver: Solver::new(Ending::Normal, moves),
        }
    }

    /// True when the player to move wins from a pile of `n` stones.
    ///
    /// Positions are decided from the empty pile upwards so that the search
    /// never recurses deeper than one move, whatever `n` is.
    pub fn first_player_wins(&mut self, n: u64) -> bool {
        for smaller in 0..n {
            self.solver.wins(&smaller);
        }
        self.solver.wins(&n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lost_piles(m: u64, up_to: u64) -> Vec<u64> {
        let mut o = BashOracle::new(m);
        (0..=up_to).filter(|&n| !o.first_player_wins(n)).collect()
    }

    #[test]
    fn taking_one_at_a_time_alternates() {
        assert_eq!(lost_piles(1, 9), vec![0, 2, 4, 6, 8]);
    }

    #[test]
    fn hand_checked_bounds() {
        // m = 3: from 4 every move leaves 1..3, which the opponent empties.
        assert_eq!(lost_piles(3, 12), vec![0, 4, 8, 12]);
        assert_eq!(lost_piles(5, 13), vec![0, 6, 12]);
    }

    #[test]
    fn a_pile_within_reach_is_won() {
        let mut o = BashOracle::new(10);
        assert!((1..=10).all(|n| o.first_player_wins(n)));
        assert!(!o.first_player_wins(11));
    }

    #[test]
    fn large_piles_do_not_overflow_the_stack() {
        let mut o = BashOracle::new(7);
        // 20 000 is a multiple of 8, so it is lost like 8 and 16.
        assert!(!o.first_player_wins(20_000));
    }
}
