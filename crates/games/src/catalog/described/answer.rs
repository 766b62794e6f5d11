//! A described game's answers: the expected output of an input, from
//! theory where it applies and from the search on small positions; and
//! the judging of a move, which has many right answers.

use super::{GameSpec, Question};
use crate::catalog::format::InputError;
use crate::games::described::positions::searchable;
use crate::games::described::{Analysis, Step, Theory};

/// Why the description gives no answer for an input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unanswered {
    #[error("the input breaks the game's input format: {0}")]
    Format(InputError),
    #[error("case {case}: {why}")]
    Unknown { case: usize, why: String },
    #[error("a played game has no expected output")]
    Played,
}

/// Why an output is not a right answer to a move question.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WrongMove {
    #[error("case {case}: expected a move or `{lose}`, got the end of the output")]
    Missing { case: usize, lose: String },
    #[error("case {case}: `{got}` is not a number of a move (or `{lose}`)")]
    NotANumber {
        case: usize,
        got: String,
        lose: String,
    },
    #[error("case {case}: `{lose}`, but {shown} is won: {hint}")]
    SaidLost {
        case: usize,
        lose: String,
        shown: String,
        hint: String,
    },
    #[error("case {case}: {shown} is lost, so the answer is `{lose}`, not a move")]
    MovedFromLost {
        case: usize,
        lose: String,
        shown: String,
    },
    #[error("case {case}: move `{mv}` is not legal at {shown}: {why}")]
    Illegal {
        case: usize,
        mv: String,
        shown: String,
        why: String,
    },
    #[error("case {case}: move `{mv}` leaves {after}, which the opponent wins")]
    Loses {
        case: usize,
        mv: String,
        after: String,
    },
    #[error("`{got}` after the last case")]
    Extra { got: String },
}

/// A judge's fault, not the output's: a position it cannot decide.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Undecided(pub String);

impl GameSpec {
    /// The expected output of `input`: one line per case.
    pub fn answer(&self, input: &str) -> Result<String, Unanswered> {
        if self.question == Question::Play {
            return Err(Unanswered::Played);
        }
        let format = self.input_format();
        let cases = format.checked_cases(input).map_err(Unanswered::Format)?;
        let mut out = String::new();
        for (k, case) in cases.iter().enumerate() {
            let (params, position) = self.read_case(case);
            let line = self
                .answer_position(&params, &position)
                .map_err(|why| Unanswered::Unknown { case: k + 1, why })?;
            out.push_str(&line);
            out.push('\n');
        }
        Ok(out)
    }

    /// The expected answer line of one position.
    pub fn answer_position(&self, params: &[u64], position: &[u64]) -> Result<String, String> {
        let analysis = self
            .analysis(params)
            .ok_or_else(|| "a parameter of the moves is missing".to_string())?;
        let unknown = || why_unknown(&analysis, position);
        match &self.question {
            Question::Winner { win, lose } => Ok(match analysis.mover_wins(position) {
                Some(true) => win.clone(),
                Some(false) => lose.clone(),
                None => return Err(unknown()),
            }),
            Question::Move { lose } => {
                let steps = analysis.winning_steps(position).ok_or_else(unknown)?;
                Ok(match best(&steps) {
                    Some(s) => self.write_step(s),
                    None => lose.clone(),
                })
            }
            Question::Count => Ok(analysis
                .count_winning_steps(position)
                .ok_or_else(unknown)?
                .to_string()),
            Question::Play => Err("a played game has no expected output".into()),
        }
    }

    /// A move as the output writes it: `i x`, or `i x y` when heaps split.
    pub fn write_step(&self, s: &Step) -> String {
        if self.splits() {
            format!("{} {} {}", s.heap + 1, s.left, s.right)
        } else {
            format!("{} {}", s.heap + 1, s.left)
        }
    }

    /// Judges the output of a move question on `input`: every case's
    /// answer is `lose` exactly when no move wins, otherwise a legal move
    /// that leaves a lost position.
    pub fn judge_moves(
        &self,
        input: &str,
        output: &str,
    ) -> Result<Result<(), WrongMove>, Undecided> {
        self.judge_moves_with(input, output, &|a, p| a.mover_wins(p))
    }

    /// [`Self::judge_moves`], with who wins decided by the search alone
    /// (the oracle's check, which trusts no theorem).
    pub fn judge_moves_by_search(
        &self,
        input: &str,
        output: &str,
    ) -> Result<Result<(), WrongMove>, Undecided> {
        self.judge_moves_with(input, output, &|a, p| {
            searchable(a.moves(), p).then(|| a.with_search(|s| s.wins(p)))
        })
    }

    fn judge_moves_with(
        &self,
        input: &str,
        output: &str,
        decide: &dyn Fn(&Analysis, &[u64]) -> Option<bool>,
    ) -> Result<Result<(), WrongMove>, Undecided> {
        let Question::Move { lose } = &self.question else {
            return Err(Undecided("not a move question".into()));
        };
        let format = self.input_format();
        let cases = format
            .parse(input)
            .map_err(|e| Undecided(format!("the test's input breaks its format: {e}")))?;
        let mut tokens = output.split_ascii_whitespace();
        let arity = if self.splits() { 3 } else { 2 };
        for (k, case) in cases.iter().enumerate() {
            let case_no = k + 1;
            let (params, position) = self.read_case(case);
            let analysis = self
                .analysis(&params)
                .ok_or_else(|| Undecided("a parameter of the moves is missing".into()))?;
            let shown = shown_position(&position);
            let wins = decide(&analysis, &position)
                .ok_or_else(|| Undecided(why_unknown(&analysis, &position)))?;
            let Some(first) = tokens.next() else {
                return Ok(Err(WrongMove::Missing {
                    case: case_no,
                    lose: lose.clone(),
                }));
            };
            if first == lose {
                if wins {
                    let hint = analysis
                        .winning_steps(&position)
                        .and_then(|s| {
                            best(&s).map(|s| format!("for example `{}`", self.write_step(s)))
                        })
                        .unwrap_or_else(|| "a winning move exists".into());
                    return Ok(Err(WrongMove::SaidLost {
                        case: case_no,
                        lose: lose.clone(),
                        shown,
                        hint,
                    }));
                }
                continue;
            }
            let mut numbers = vec![first];
            for _ in 1..arity {
                match tokens.next() {
                    Some(t) => numbers.push(t),
                    None => {
                        return Ok(Err(WrongMove::Missing {
                            case: case_no,
                            lose: lose.clone(),
                        }));
                    }
                }
            }
            let mut values = Vec::with_capacity(arity);
            for t in &numbers {
                match t.parse::<u64>() {
                    Ok(v) if t.bytes().all(|b| b.is_ascii_digit()) => values.push(v),
                    _ => {
                        return Ok(Err(WrongMove::NotANumber {
                            case: case_no,
                            got: t.chars().take(30).collect(),
                            lose: lose.clone(),
                        }));
                    }
                }
            }
            let mv = numbers.join(" ");
            if !wins {
                return Ok(Err(WrongMove::MovedFromLost {
                    case: case_no,
                    lose: lose.clone(),
                    shown,
                }));
            }
            let step = match analysis.legal_step(&position, &values) {
                Ok(s) => s,
                Err(why) => {
                    return Ok(Err(WrongMove::Illegal {
                        case: case_no,
                        mv,
                        shown,
                        why,
                    }));
                }
            };
            let after = step.apply(&position);
            let next_wins = decide(&analysis, &after)
                .ok_or_else(|| Undecided(why_unknown(&analysis, &after)))?;
            if next_wins {
                return Ok(Err(WrongMove::Loses {
                    case: case_no,
                    mv,
                    after: shown_position(&after),
                }));
            }
        }
        if let Some(extra) = tokens.next() {
            return Ok(Err(WrongMove::Extra {
                got: extra.chars().take(30).collect(),
            }));
        }
        Ok(Ok(()))
    }
}

/// Among winning steps, the one taking the most tokens (ties: the first
/// heap): short games, and a single answer the same everywhere.
pub fn best(steps: &[Step]) -> Option<&Step> {
    steps
        .iter()
        .min_by_key(|s| (s.left + s.right, s.heap, s.left))
}

/// Why no answer is known for `position`.
pub fn why_unknown(analysis: &Analysis, position: &[u64]) -> String {
    let shown = shown_position(position);
    match (analysis.theory(), analysis.heap_values()) {
        (Theory::Sum, Some(h)) => match h.known_below() {
            Some(b) => format!(
                "{shown}: one heap's Grundy values are known only for heaps below {b} tokens (no period proven for these moves)"
            ),
            None => format!("{shown}: undecided"),
        },
        _ => format!(
            "{shown}: {}; this position is too large for the search",
            analysis.explain()
        ),
    }
}

/// A position for messages, clipped.
pub fn shown_position(p: &[u64]) -> String {
    let shown: Vec<String> = p.iter().take(8).map(u64::to_string).collect();
    let more = if p.len() > 8 { " …" } else { "" };
    format!("position `{}{more}`", shown.join(" "))
}
