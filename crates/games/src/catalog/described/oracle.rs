//! The oracle of a described game: every small position the constraints
//! allow, answered by the exhaustive search alone (no theorem), which
//! `verify` runs the reference on, and which checks grundy's own theory
//! when there is no reference.

use super::answer::best;
use super::{GameSpec, Position, Question};
use crate::catalog::format::{Bound, Case, Framing};
use crate::catalog::kit::{chunks, multisets, vary_order};
use crate::catalog::{OracleCase, Rejection, tokens_match};
use crate::games::described::positions::{searchable, steps};

/// At most this many positions in all: the reference runs once per input.
const MAX_POSITIONS: usize = 400;

impl GameSpec {
    /// The oracle's cases: inputs of small positions with the search's
    /// answers (empty for a played game, whose player is judged by
    /// playing).
    pub fn oracle_cases(&self) -> Vec<OracleCase> {
        if self.played() {
            return Vec::new();
        }
        let mut decided: Vec<(Case, String)> = Vec::new();
        for params in self.small_parameters() {
            let Some(analysis) = self.analysis(&params) else {
                continue;
            };
            for position in self.small_positions() {
                if decided.len() >= MAX_POSITIONS {
                    break;
                }
                if !searchable(analysis.moves(), &position) {
                    continue;
                }
                let answer = analysis.with_search(|s| {
                    let wins = s.wins(&position);
                    match &self.question {
                        Question::Winner { win, lose } => {
                            if wins {
                                win.clone()
                            } else {
                                lose.clone()
                            }
                        }
                        Question::Move { lose } => {
                            let winning: Vec<_> = steps(analysis.moves(), &position)
                                .into_iter()
                                .filter(|st| !s.wins(&st.apply(&position)))
                                .collect();
                            best(&winning).map_or(lose.clone(), |st| self.write_step(st))
                        }
                        Question::Count => steps(analysis.moves(), &position)
                            .into_iter()
                            .filter(|st| !s.wins(&st.apply(&position)))
                            .count()
                            .to_string(),
                        Question::Play => String::new(),
                    }
                });
                decided.push((self.write_case(&params, &position), answer));
            }
        }
        let per_input = match self.cases {
            Framing::Single => 1,
            Framing::Counted(b) => b.max.min(100) as usize,
            Framing::UntilEof { max } => max.min(100) as usize,
            Framing::UntilZero => 100,
        };
        let format = self.input_format();
        chunks(&decided, per_input)
            .into_iter()
            .filter(|chunk| match self.cases {
                Framing::Counted(b) => chunk.len() as u64 >= b.min,
                _ => true,
            })
            .map(|chunk| {
                let cases: Vec<Case> = chunk.iter().map(|(c, _)| c.clone()).collect();
                OracleCase {
                    input: format.render(&cases),
                    expected: chunk.iter().map(|(_, a)| format!("{a}\n")).collect(),
                }
            })
            .collect()
    }

    /// Whether `output` is right for an oracle case: the same tokens, or
    /// for a move question any move the search calls winning.
    pub fn accepts(&self, case: &OracleCase, output: &str) -> Result<(), Rejection> {
        match &self.question {
            Question::Move { .. } => match self.judge_moves_by_search(&case.input, output) {
                Ok(Ok(())) => Ok(()),
                Ok(Err(wrong)) => Err(Rejection::Described(wrong.to_string())),
                Err(undecided) => Err(Rejection::Described(undecided.to_string())),
            },
            _ => tokens_match(case, output),
        }
    }

    /// Small start positions of a played game that the search can decide.
    pub fn small_starts(&self) -> Vec<Vec<u64>> {
        let Some(a) = self.first_analysis() else {
            return Vec::new();
        };
        self.small_positions()
            .into_iter()
            .filter(|p| searchable(a.moves(), p))
            .take(MAX_POSITIONS)
            .collect()
    }

    /// Small positions within the constraints (for `grundy game`).
    pub fn small_positions_public(&self) -> Vec<Vec<u64>> {
        self.small_positions()
    }

    /// Parameter values to try: the lowest few each allows.
    fn small_parameters(&self) -> Vec<Vec<u64>> {
        let mut all: Vec<Vec<u64>> = vec![Vec::new()];
        for (_, b) in &self.parameters {
            let top = b.max.min(b.min.saturating_add(3));
            all = all
                .into_iter()
                .flat_map(|p| {
                    (b.min..=top).map(move |v| {
                        let mut q = p.clone();
                        q.push(v);
                        q
                    })
                })
                .collect();
        }
        all
    }

    /// Small positions within the constraints, smallest first.
    fn small_positions(&self) -> Vec<Vec<u64>> {
        let moves_split = self.splits();
        match self.position {
            Position::Heap { size } => {
                let top = if moves_split { 24 } else { 60 };
                (size.min..=size.max.min(top)).map(|n| vec![n]).collect()
            }
            Position::Heaps { count, size } => {
                let several = !self.rules.one_heap();
                let ordered = self.rules.ordered();
                let (most, top) = match (moves_split, several) {
                    (true, _) => (3, 6),
                    (false, true) => (3, 4),
                    (false, false) => (3, 7),
                };
                let mut out = Vec::new();
                for len in count.min.max(1)..=count.max.min(most) {
                    out.extend(lists(len as usize, size, top, ordered));
                }
                if count.min <= 4 && count.max >= 4 && !ordered {
                    out.extend(lists(4, size, top.min(4), false));
                }
                out.into_iter()
                    .enumerate()
                    .map(|(i, p)| if ordered { p } else { vary_order(p, i) })
                    .collect()
            }
        }
    }
}

/// Every list of `len` heaps within `size` and at most `top` tokens:
/// multisets, or every order when the order matters.
fn lists(len: usize, size: Bound, top: u64, ordered: bool) -> Vec<Vec<u64>> {
    let hi = size.max.min(top);
    if size.min > hi {
        return Vec::new();
    }
    if !ordered {
        // `multisets` counts from 1; shift to the bound's minimum.
        let shift = size.min.saturating_sub(1);
        let mut out: Vec<Vec<u64>> = multisets(len, hi - shift)
            .into_iter()
            .map(|p| p.into_iter().map(|a| a + shift).collect())
            .collect();
        if size.min == 0 {
            // Heaps of 0, which the bound allows, as well.
            out.extend(with_empty_heaps(len, hi));
        }
        return out;
    }
    let mut all: Vec<Vec<u64>> = vec![Vec::new()];
    for _ in 0..len {
        all = all
            .into_iter()
            .flat_map(|p| {
                (size.min..=hi).map(move |a| {
                    let mut q = p.clone();
                    q.push(a);
                    q
                })
            })
            .collect();
    }
    all
}

/// Multisets of `len` heaps of 0 to `hi` with at least one empty heap.
fn with_empty_heaps(len: usize, hi: u64) -> Vec<Vec<u64>> {
    (1..=len)
        .flat_map(|zeros| {
            let rest = if zeros == len {
                vec![Vec::new()]
            } else {
                multisets(len - zeros, hi)
            };
            rest.into_iter().map(move |r| {
                let mut p = vec![0; zeros];
                p.extend(r);
                p
            })
        })
        .collect()
}
