//! What `grundy game` shows of a described game: one heap's Grundy
//! values, their period and its proof, small P-positions, and a
//! position's value and winning moves.

use serde::Serialize;

use super::{GameSpec, Position};
use crate::games::described::positions::searchable;
use crate::games::described::{Analysis, Period, values};

/// Why a question about the game has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    #[error(
        "the moves use the parameter `{name}`: give its value with --set {name}=VALUE (allowed: {min}..={max})"
    )]
    MissingParameter { name: String, min: u64, max: u64 },
    #[error("--set {0}: the game has no such parameter")]
    UnknownParameter(String),
    #[error("--set {text}: expected NAME=VALUE with a whole number")]
    BadSet { text: String },
    #[error("{0}")]
    Unknown(String),
    #[error("--position: `{0}` is not a list of heap sizes (whole numbers separated by spaces)")]
    BadPosition(String),
    #[error(
        "the positions of this game never hold a single heap (at least {0} heaps), so it has no values of one heap"
    )]
    NoSingleHeap(u64),
}

/// One position looked at.
#[derive(Debug, Clone, Serialize)]
pub struct PositionView {
    pub heaps: Vec<u64>,
    /// The normal-play Grundy value of the position, when it is a sum of
    /// heaps with known values.
    pub value: Option<u64>,
    pub first_player_wins: bool,
    /// The winning moves as an answer writes them (at most [`SHOWN`]).
    pub winning_moves: Vec<String>,
    /// How many winning moves there are, when countable.
    pub winning_move_count: Option<String>,
}

/// Most winning moves listed.
pub const SHOWN: usize = 20;

/// The values of one heap and what is known of them.
#[derive(Debug, Clone)]
pub struct Exploration {
    pub values: Vec<u64>,
    pub period: Option<Period>,
    /// How the values and the answers are known, in words.
    pub how: String,
    /// Small P-positions (the player to move loses).
    pub p_positions: Vec<Vec<u64>>,
}

impl GameSpec {
    /// Parameter values from `NAME=VALUE` texts, each within its bound.
    pub fn parameter_values(&self, sets: &[String]) -> Result<Vec<u64>, ExploreError> {
        let mut values: Vec<Option<u64>> = vec![None; self.parameters.len()];
        for text in sets {
            let (name, value) = text
                .split_once('=')
                .and_then(|(n, v)| Some((n.trim(), v.trim().parse::<u64>().ok()?)))
                .ok_or_else(|| ExploreError::BadSet { text: text.clone() })?;
            let i = self
                .parameters
                .iter()
                .position(|(n, _)| n == name)
                .ok_or_else(|| ExploreError::UnknownParameter(name.to_string()))?;
            values[i] = Some(value);
        }
        let used = self.rules.parameters();
        self.parameters
            .iter()
            .zip(values)
            .map(|((name, b), v)| match v {
                Some(v) => Ok(v),
                None if used.contains(&name.as_str()) => Err(ExploreError::MissingParameter {
                    name: name.clone(),
                    min: b.min,
                    max: b.max,
                }),
                None => Ok(b.min),
            })
            .collect()
    }

    /// The first `n` values of one heap, their period and small P-positions.
    pub fn explore(&self, params: &[u64], n: u64) -> Result<Exploration, ExploreError> {
        let analysis = self
            .analysis(params)
            .ok_or_else(|| ExploreError::Unknown("a parameter of the moves has no value".into()))?;
        if let Position::Heaps { count, .. } = self.position
            && count.min > 1
        {
            return Err(ExploreError::NoSingleHeap(count.min));
        }
        let values = heap_values(&analysis, n)?;
        let period = analysis.heap_values().and_then(|h| h.period());
        let p_positions = self
            .small_positions_public()
            .into_iter()
            .filter(|p| searchable(analysis.moves(), p) && analysis.mover_wins(p) == Some(false))
            .take(40)
            .collect();
        let how = match analysis.heap_values() {
            Some(h) if analysis.theory() == crate::games::described::Theory::Sum => h.explain(),
            _ => analysis.explain(),
        };
        Ok(Exploration {
            values,
            period,
            how,
            p_positions,
        })
    }

    /// A position's value, outcome and winning moves.
    pub fn look_at(&self, params: &[u64], text: &str) -> Result<PositionView, ExploreError> {
        let heaps: Vec<u64> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<u64>())
            .collect::<Result<_, _>>()
            .map_err(|_| ExploreError::BadPosition(text.chars().take(60).collect()))?;
        if heaps.is_empty() {
            return Err(ExploreError::BadPosition(text.chars().take(60).collect()));
        }
        let analysis = self
            .analysis(params)
            .ok_or_else(|| ExploreError::Unknown("a parameter of the moves has no value".into()))?;
        let wins = analysis
            .mover_wins(&heaps)
            .ok_or_else(|| ExploreError::Unknown(super::answer::why_unknown(&analysis, &heaps)))?;
        let value = match analysis.moves().ending {
            crate::games::search::Ending::Normal => analysis.sum_value(&heaps),
            crate::games::search::Ending::Misere => None,
        };
        let steps = if self.rules.one_heap() {
            analysis.winning_steps(&heaps).unwrap_or_default()
        } else {
            Vec::new()
        };
        let winning_moves = steps
            .iter()
            .take(SHOWN)
            .map(|s| self.write_step(s))
            .collect();
        let winning_move_count = if self.rules.one_heap() {
            analysis.count_winning_steps(&heaps).map(|c| c.to_string())
        } else {
            None
        };
        Ok(PositionView {
            heaps,
            value,
            first_player_wins: wins,
            winning_moves,
            winning_move_count,
        })
    }
}

/// `G(0) … G(n - 1)` of one heap: from the known values, the table
/// computed further when they stop, or the search.
fn heap_values(analysis: &Analysis, n: u64) -> Result<Vec<u64>, ExploreError> {
    if let Some(h) = analysis.heap_values() {
        if let Some(all) = (0..n).map(|i| h.get(i)).collect::<Option<Vec<u64>>>() {
            return Ok(all);
        }
        // Beyond what was computed: compute further, within reason.
        if n <= 20_000 {
            return Ok(values::table(analysis.moves(), n as usize));
        }
        return Err(ExploreError::Unknown(format!(
            "one heap's values are known only below {} tokens for these moves; ask for fewer",
            h.known_below().unwrap_or(0)
        )));
    }
    // Moves on several heaps: one heap alone, by the search.
    let mut out = Vec::with_capacity(n as usize);
    for i in 0..n {
        if !searchable(analysis.moves(), &[i]) {
            return Err(ExploreError::Unknown(format!(
                "the search decides one heap only up to {} tokens for these moves; ask for fewer",
                i
            )));
        }
        out.push(analysis.with_search(|s| s.grundy(&[i])));
    }
    Ok(out)
}
