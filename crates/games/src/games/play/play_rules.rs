//! What the judge plays by in a played game: the rules of one game as the
//! interactor needs them (a position line, a legal move, a good move), and
//! those rules for the built-in games.

use crate::generate::Rng;

use super::rules::Game;

/// The rules the judge plays by, for one game: a built-in one ([`Game`])
/// or a described one (`games::described::play`). The interactor speaks
/// the protocol; these say what a position line, a legal move and a good
/// move are.
pub trait PlayRules: Send + Sync {
    /// The game's name, kept in transcripts (`nim-play`, …).
    fn name(&self) -> &str;
    /// The line that announces a start position.
    fn position_line(&self, p: &[u64]) -> String;
    /// How many numbers one move is.
    fn arity(&self) -> usize;
    /// The position after the submission's move `mv`, or why the move is
    /// not legal (shown to the contestant after the move).
    fn apply(&self, p: &[u64], mv: &[u64]) -> Result<Vec<u64>, String>;
    /// Whether the player to move wins with best play.
    fn mover_wins(&self, p: &[u64]) -> bool;
    /// Whether no move is left.
    fn over(&self, p: &[u64]) -> bool;
    /// Whether the player who makes the last move loses.
    fn misere(&self) -> bool;
    /// What the last move did, for the message that ends a game.
    fn last_move(&self) -> &'static str {
        "took the last stone"
    }
    /// The judge's move from a won position: its text and the position
    /// after it.
    fn winning_move(&self, p: &[u64]) -> Option<(String, Vec<u64>)>;
    /// The judge's move from a lost (or any) position that is not over;
    /// `early` says the game is young (moves that expose wrong strategies
    /// then, moves that shorten the game later).
    fn probing_move(&self, p: &[u64], early: bool, rng: &mut Rng) -> Option<(String, Vec<u64>)>;
}

impl PlayRules for Game {
    fn name(&self) -> &str {
        Game::name(*self)
    }

    fn position_line(&self, p: &[u64]) -> String {
        match self {
            Game::Wythoff => format!("{} {}", p[0], p[1]),
            Game::Nim | Game::MisereNim => {
                let piles: Vec<String> = p.iter().map(u64::to_string).collect();
                format!("{} {}", p.len(), piles.join(" "))
            }
        }
    }

    fn arity(&self) -> usize {
        2
    }

    fn apply(&self, p: &[u64], mv: &[u64]) -> Result<Vec<u64>, String> {
        let (a, b) = (mv[0], mv[1]);
        let next = match self {
            Game::Wythoff => vec![a, b],
            Game::Nim | Game::MisereNim => {
                let n = p.len() as u64;
                if a == 0 || a > n {
                    return Err(format!("there is no pile {a} (1 to {n})"));
                }
                let mut q = p.to_vec();
                q[(a - 1) as usize] = b;
                q
            }
        };
        self.legal(p, &next).map_err(|why| match self {
            Game::Wythoff => why.to_string(),
            _ => format!(
                "pile {a} has {} stones, so it may be left with 0 to {}",
                p[(a - 1) as usize],
                p[(a - 1) as usize].saturating_sub(1)
            ),
        })?;
        Ok(next)
    }

    fn mover_wins(&self, p: &[u64]) -> bool {
        Game::mover_wins(*self, p)
    }

    fn over(&self, p: &[u64]) -> bool {
        Game::over(p)
    }

    fn misere(&self) -> bool {
        *self == Game::MisereNim
    }

    fn winning_move(&self, p: &[u64]) -> Option<(String, Vec<u64>)> {
        let next = Game::winning_move(*self, p)?;
        Some((self.move_text(p, &next), next))
    }

    fn probing_move(&self, p: &[u64], early: bool, rng: &mut Rng) -> Option<(String, Vec<u64>)> {
        let next = Game::probing_move(*self, p, early, rng)?;
        Some((self.move_text(p, &next), next))
    }
}

impl Game {
    /// The wire text of the move from `p` to `next`.
    fn move_text(self, p: &[u64], next: &[u64]) -> String {
        match self {
            Game::Wythoff => format!("{} {}", next[0], next[1]),
            _ => {
                let i = (0..next.len()).find(|&i| next[i] != p[i]).unwrap_or(0);
                format!("{} {}", i + 1, next[i])
            }
        }
    }
}
