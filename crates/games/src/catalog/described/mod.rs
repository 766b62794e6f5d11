//! A problem whose game is described in its `problem.yaml` (`game:`):
//! the description as a setter writes it ([`GameSpec`]), and what grundy
//! derives from it as it does for the catalog's games: the input format
//! ([`format`]), the answers ([`answer`]), the oracle's small cases
//! ([`oracle`]) and the generator family `game` ([`generate`]).
//!
//! The description's keys are read by serde, so a refusal carries its
//! line and column; each message names the key and says why.

pub mod answer;
pub mod explore;
pub mod format;
pub mod generate;
pub mod groups;
pub mod oracle;
mod raw;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::format::{Bound, Framing};
use crate::games::described::{Analysis, Rules};

pub use raw::RawGame;

/// Which positions a case holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// `n` heaps (`count`), each of `size` tokens: `n`, then the heaps.
    Heaps { count: Bound, size: Bound },
    /// One heap of `n` tokens (`size`).
    Heap { size: Bound },
}

/// What a case asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    /// Who wins: `win` when the player to move wins, else `lose`.
    Winner { win: String, lose: String },
    /// A winning move, or `lose` when there is none. Any winning move is
    /// right: a checker judges it.
    Move { lose: String },
    /// The number of winning moves.
    Count,
    /// Played against the judge.
    Play,
}

/// The `game:` section of a problem, checked.
pub struct GameSpec {
    pub rules: Rules,
    pub position: Position,
    /// Numbers each case gives after `n`, in order, that moves use.
    pub parameters: Vec<(String, Bound)>,
    pub question: Question,
    pub cases: Framing,
    /// Whether a case's heaps follow `n` on its line.
    pub same_line: bool,
    /// One analysis per set of parameter values met so far.
    analyses: Mutex<HashMap<Vec<u64>, Arc<Analysis>>>,
}

impl std::fmt::Debug for GameSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameSpec")
            .field("rules", &self.rules)
            .field("position", &self.position)
            .field("parameters", &self.parameters)
            .field("question", &self.question)
            .field("cases", &self.cases)
            .field("same_line", &self.same_line)
            .finish()
    }
}

/// The most analyses one problem keeps (each holds a table of values):
/// a problem whose parameter takes many values computes them again.
const KEPT_ANALYSES: usize = 64;

impl GameSpec {
    /// The analysis of the game with these parameter values (in the order
    /// of [`GameSpec::parameters`]), computed once; `None` when a value is
    /// missing.
    pub fn analysis(&self, values: &[u64]) -> Option<Arc<Analysis>> {
        let mut kept = match self.analyses.lock() {
            Ok(k) => k,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(a) = kept.get(values) {
            return Some(Arc::clone(a));
        }
        let names: Vec<String> = self.parameters.iter().map(|(n, _)| n.clone()).collect();
        let a = Arc::new(Analysis::new(self.rules.bind(&names, values)?));
        if kept.len() >= KEPT_ANALYSES {
            kept.clear();
        }
        kept.insert(values.to_vec(), Arc::clone(&a));
        Some(a)
    }

    /// The analysis with every parameter at the lowest value it allows
    /// (the game itself when there are none).
    pub fn first_analysis(&self) -> Option<Arc<Analysis>> {
        let values: Vec<u64> = self.parameters.iter().map(|(_, b)| b.min).collect();
        self.analysis(&values)
    }

    /// Whether moves may split a heap: moves are then written `i x y`.
    pub fn splits(&self) -> bool {
        self.rules.splits()
    }

    /// The bound on a heap's tokens.
    pub fn heap_size(&self) -> Bound {
        match self.position {
            Position::Heaps { size, .. } | Position::Heap { size } => size,
        }
    }

    /// The rules in words, for `grundy game` and statements.
    pub fn describe_moves(&self) -> Vec<String> {
        self.rules.moves.iter().map(ToString::to_string).collect()
    }
}

/// Why a `game:` section is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(
        "game: give the positions as `heaps: [LO, HI]` with `tokens: [LO, HI]` (a list of heaps), or as `heap: [LO, HI]` (one heap)"
    )]
    Positions,
    #[error("game.{key}: {lo}..{hi} is empty (the first number is above the second)")]
    EmptyRange { key: String, lo: u64, hi: u64 },
    #[error("game.heaps: a position has at least 1 heap (found {lo})")]
    NoHeaps { lo: u64 },
    #[error("game.{key}: at most {max} (found {found})")]
    TooLarge { key: String, max: u64, found: u64 },
    #[error("game.parameters.{name}: {why}")]
    Parameter { name: String, why: String },
    #[error("game.moves[{index}]: `{name}` is not a parameter ({known})")]
    UnknownParameter {
        index: usize,
        name: String,
        known: String,
    },
    #[error("game.moves: {0}")]
    Moves(&'static str),
    #[error("game.question: {0}")]
    Question(String),
    #[error("game.cases: {0}")]
    Cases(String),
    #[error("game.list: {0}")]
    List(String),
}

impl GameError {
    /// The key at fault, below `game:`: names, and a list item's index.
    pub fn key(&self) -> Vec<crate::yaml::KeyPart> {
        use crate::yaml::KeyPart::{Index, Name};
        match self {
            GameError::Positions => Vec::new(),
            GameError::EmptyRange { key, .. } | GameError::TooLarge { key, .. } => {
                key.split('.').map(|k| Name(k.to_string())).collect()
            }
            GameError::NoHeaps { .. } => vec![Name("heaps".into())],
            GameError::Parameter { name, .. } => {
                vec![Name("parameters".into()), Name(name.clone())]
            }
            GameError::UnknownParameter { index, .. } => vec![Name("moves".into()), Index(*index)],
            GameError::Moves(_) => vec![Name("moves".into())],
            GameError::Question(_) => vec![Name("question".into())],
            GameError::Cases(_) => vec![Name("cases".into())],
            GameError::List(_) => vec![Name("list".into())],
        }
    }
}

#[cfg(test)]
mod tests;
