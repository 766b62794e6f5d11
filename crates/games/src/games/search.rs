//! The one game-theoretic idea every oracle shares: a position is winning
//! exactly when some move leads to a losing position.
//!
//! Nothing here knows a closed-form formula; that is the point. Oracles built
//! on this search are slow but obviously right, and the reference solutions
//! (which do use formulas) are checked against them.

use std::collections::HashMap;
use std::hash::Hash;

/// Who wins when the player to move has no move at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Normal play: the player who cannot move loses.
    Normal,
    /// Misère play: the player who cannot move wins (taking the last object loses).
    Misere,
}

/// A memoised win/lose search over positions of type `P`.
///
/// `moves` lists the positions reachable in one move. Positions should be
/// canonical (e.g. sorted piles) so that the memo stays small.
pub struct Solver<P, F>
where
    P: Clone + Eq + Hash,
    F: Fn(&P) -> Vec<P>,
{
    moves: F,
    ending: Ending,
    memo: HashMap<P, bool>,
}

impl<P, F> Solver<P, F>
where
    P: Clone + Eq + Hash,
    F: Fn(&P) -> Vec<P>,
{
    pub fn new(ending: Ending, moves: F) -> Self {
        Solver {
            moves,
            ending,
            memo: HashMap::new(),
        }
    }

    /// True when the player to move in `p` wins under optimal play.
    pub fn wins(&mut self, p: &P) -> bool {
        if let Some(&w) = self.memo.get(p) {
            return w;
        }
        let next = (self.moves)(p);
        let w = if next.is_empty() {
            self.ending == Ending::Misere
        } else {
            next.iter().any(|q| !self.wins(q))
        };
        self.memo.insert(p.clone(), w);
        w
    }

    /// The moves from `p` that leave the opponent in a losing position.
    pub fn winning_moves(&mut self, p: &P) -> Vec<P> {
        (self.moves)(p)
            .into_iter()
            .filter(|q| !self.wins(q))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Subtraction game: take 1 or 2 from a single pile.
    fn take_one_or_two(n: &u32) -> Vec<u32> {
        (1..=2).filter(|k| k <= n).map(|k| n - k).collect()
    }

    #[test]
    fn normal_play_multiples_of_three_lose() {
        let mut s = Solver::new(Ending::Normal, take_one_or_two);
        let losing: Vec<u32> = (0..10).filter(|n| !s.wins(n)).collect();
        assert_eq!(losing, vec![0, 3, 6, 9]);
    }

    #[test]
    fn misere_play_flips_terminal() {
        let mut s = Solver::new(Ending::Misere, take_one_or_two);
        assert!(s.wins(&0));
        assert!(!s.wins(&1));
        assert_eq!(s.winning_moves(&2), vec![1]);
    }
}
