//! The judge's side of the played games (`nim-play`, `misere-nim-play`,
//! `wythoff-play`): a state machine that speaks the protocol of
//! docs/reference.md.
//!
//! It is pure: bytes from the submission go in ([`Interactor::feed`]),
//! bytes for the submission come out ([`Interactor::take_output`]), and it
//! ends with an [`Outcome`] and the transcript of the last game played. No
//! process, pipe or clock is involved, so the protocol is tested without
//! running anything, and the judge's runner (which owns the pipes, the
//! limits and the idleness clock) knows nothing of the games.

pub mod rules;

use serde::{Deserialize, Serialize};

pub use rules::Game;

use crate::generate::Rng;

/// How much of a token that is no move a message quotes.
const SHOWN_TOKEN_CHARS: usize = 60;
/// Most moves (both sides together) in one run, as the protocol promises.
pub const MAX_MOVES: u64 = 100_000;
/// Moves the judge plays on after the submission moved into a lost
/// position before it declares the game lost.
pub const LOST_GRACE: u64 = 1_000;
/// The judge's first moves of a game that probe for wrong strategies;
/// after them it plays to end the game quickly.
const PROBING_MOVES: u32 = 3;
/// A token longer than this cannot be a move or a choice.
const MAX_TOKEN: usize = 64;
/// The largest number of games, piles and heap sizes of the statement.
const MAX_GAMES: usize = 100;
const MAX_PILES: usize = 100;
const MAX_PILE: u64 = 1_000_000_000;
const MAX_HEAP: u64 = 1_000_000_000_000_000_000;

/// Who made a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Judge,
    Submission,
}

/// One move as it was written on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    pub by: Side,
    #[serde(rename = "move")]
    pub text: String,
}

/// One game: where it started, who chose to move first, every move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    /// 1-based number of the game in the run.
    pub game: usize,
    pub games: usize,
    /// The position line as the judge wrote it.
    pub start: Vec<u64>,
    /// `first` or `second`, once the submission chose.
    pub choice: Option<String>,
    /// Whether the submission could win this game by choosing well
    /// (always true: for the report, which side the right choice was).
    pub right_choice: String,
    pub moves: Vec<PlayedMove>,
    /// How the game ended, or why it was stopped.
    pub result: String,
    /// The interactor's name (`nim-play`, `misere-nim-play`,
    /// `wythoff-play`): how to read the moves, so that a report can replay
    /// the game without knowing the problem's spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Where the submission went wrong, as far as the judge knows: the
    /// number of moves played when it first stood in a lost position (0: its
    /// choice of side already lost; k: its move `moves[k-1]` left the judge
    /// a winning position). A student replaying the game is shown that move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_after: Option<u64>,
}

/// How a run ended, as far as the protocol can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every game won, and nothing but whitespace after the last one.
    Accepted,
    /// A game lost, an illegal line, or output after the last game.
    Wrong(String),
    /// The submission's output ended while the judge was waiting for it.
    Unfinished(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    /// Waiting for `first` or `second`.
    Choose,
    /// Waiting for the submission's move; holds its first number.
    Move(Option<u64>),
    /// Every game is over; only whitespace and the end may follow.
    AfterLast,
    Over(Outcome),
}

/// The judge's side of one run.
pub struct Interactor {
    game: Game,
    starts: Vec<Vec<u64>>,
    rng: Rng,
    current: usize,
    position: Vec<u64>,
    phase: Phase,
    out: Vec<u8>,
    token: Vec<u8>,
    /// Set while a token is being skipped for being too long.
    oversized: bool,
    run_moves: u64,
    tokens: u64,
    game_moves: u64,
    judge_moves: u32,
    /// `game_moves` when the submission moved into a lost position.
    lost_at: Option<u64>,
    transcript: Transcript,
}

/// Why a test input is not a list of start positions the statement
/// allows: the problem's fault, which the judge reports as `IE`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("the input ends before {what}")]
    Ends { what: &'static str },
    #[error("{what}: `{text}` is not a number")]
    NotANumber {
        what: &'static str,
        text: String,
        source: std::num::ParseIntError,
    },
    #[error("{games} games: the statement allows 1 to {MAX_GAMES}")]
    GameCount { games: usize },
    #[error("game {game}: heaps {a} {b} outside 0..10^18 or both empty")]
    Heaps { game: usize, a: u64, b: u64 },
    #[error("game {game}: {piles} piles, outside 1..{MAX_PILES}")]
    PileCount { game: usize, piles: usize },
    #[error("game {game}: a pile outside 1..10^9")]
    PileSize { game: usize },
    #[error("unexpected `{text}` after the last game")]
    Trailing { text: String },
}

/// Reads a test input: `T`, then `T` positions (`n a_1 … a_n`, or `a b`
/// for Wythoff), checked against the statement's constraints. An input
/// that breaks them is the problem's fault, so the caller reports `IE`.
pub fn parse_games(game: Game, input: &str) -> Result<Vec<Vec<u64>>, InputError> {
    let mut tokens = input.split_whitespace();
    let mut next = |what: &'static str| -> Result<u64, InputError> {
        let t = tokens.next().ok_or(InputError::Ends { what })?;
        t.parse::<u64>().map_err(|source| InputError::NotANumber {
            what,
            text: t.to_string(),
            source,
        })
    };
    let t = next("the number of games")? as usize;
    if !(1..=MAX_GAMES).contains(&t) {
        return Err(InputError::GameCount { games: t });
    }
    let mut games = Vec::with_capacity(t);
    for g in 1..=t {
        let position = match game {
            Game::Wythoff => {
                let (a, b) = (next("a heap")?, next("a heap")?);
                if a > MAX_HEAP || b > MAX_HEAP || a + b == 0 {
                    return Err(InputError::Heaps { game: g, a, b });
                }
                vec![a, b]
            }
            Game::Nim | Game::MisereNim => {
                let n = next("the number of piles")? as usize;
                if !(1..=MAX_PILES).contains(&n) {
                    return Err(InputError::PileCount { game: g, piles: n });
                }
                let piles = (0..n)
                    .map(|_| next("a pile"))
                    .collect::<Result<Vec<_>, _>>()?;
                if piles.iter().any(|&a| !(1..=MAX_PILE).contains(&a)) {
                    return Err(InputError::PileSize { game: g });
                }
                piles
            }
        };
        games.push(position);
    }
    if let Some(extra) = tokens.next() {
        return Err(InputError::Trailing {
            text: extra.to_string(),
        });
    }
    Ok(games)
}

impl Interactor {
    /// A run over `starts` (at least one game); `seed` makes the judge's
    /// probing moves reproducible. The first lines to send are ready in
    /// [`Interactor::take_output`].
    pub fn new(game: Game, starts: Vec<Vec<u64>>, seed: u64) -> Interactor {
        let first = starts.first().cloned().unwrap_or_default();
        let mut me = Interactor {
            game,
            rng: Rng::new(seed),
            current: 0,
            position: first.clone(),
            phase: Phase::Choose,
            out: format!("{}\n", starts.len()).into_bytes(),
            token: Vec::new(),
            oversized: false,
            run_moves: 0,
            tokens: 0,
            game_moves: 0,
            judge_moves: 0,
            lost_at: None,
            transcript: Transcript {
                game: 1,
                games: starts.len(),
                start: first,
                choice: None,
                right_choice: String::new(),
                moves: Vec::new(),
                result: String::new(),
                rules: Some(game.name().into()),
                lost_after: None,
            },
            starts,
        };
        if me.starts.is_empty() {
            me.phase = Phase::AfterLast;
        } else {
            me.begin_game();
        }
        me
    }

    /// Bytes to send to the submission, in order; empties the buffer.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Whether output is waiting to be taken.
    pub fn has_output(&self) -> bool {
        !self.out.is_empty()
    }

    /// Whether the judge is waiting for the submission (a line or its end):
    /// the time it spends so counts towards the idleness limit.
    pub fn waiting(&self) -> bool {
        !matches!(self.phase, Phase::Over(_))
    }

    /// Whether every game has been played and won: only the submission's
    /// exit is missing.
    pub fn all_games_won(&self) -> bool {
        self.phase == Phase::AfterLast
    }

    /// The outcome, once the run is decided.
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.phase {
            Phase::Over(o) => Some(o),
            _ => None,
        }
    }

    /// The game being played, or the last one.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// Complete tokens read from the submission so far: the judge's
    /// idleness clock restarts whenever this grows.
    pub fn tokens_read(&self) -> u64 {
        self.tokens
    }

    /// Moves played in the whole run so far.
    pub fn moves(&self) -> u64 {
        self.run_moves
    }

    /// Bytes the submission wrote.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if matches!(self.phase, Phase::Over(_)) {
                return;
            }
            if b.is_ascii_whitespace() {
                if self.oversized {
                    self.oversized = false;
                    self.fail("a token of more than 64 characters".into());
                } else if !self.token.is_empty() {
                    let token = std::mem::take(&mut self.token);
                    self.on_token(&token);
                }
            } else if self.token.len() < MAX_TOKEN {
                self.token.push(b);
            } else {
                self.oversized = true;
            }
        }
    }

    /// The submission's output ended (it closed it or exited). Decides the
    /// run if it was not decided yet.
    pub fn end_of_output(&mut self) {
        if self.oversized {
            self.oversized = false;
            self.fail("a token of more than 64 characters".into());
        } else if !self.token.is_empty() {
            let token = std::mem::take(&mut self.token);
            self.on_token(&token);
        }
        let waiting_for = match &self.phase {
            Phase::Over(_) => return,
            Phase::AfterLast => {
                self.phase = Phase::Over(Outcome::Accepted);
                return;
            }
            Phase::Choose => "`first` or `second`",
            Phase::Move(_) => "your move",
        };
        let why = format!(
            "game {} of {}: the output ended while the judge waited for {waiting_for}",
            self.current + 1,
            self.starts.len()
        );
        self.transcript.result = why.clone();
        self.phase = Phase::Over(Outcome::Unfinished(why));
    }

    /// Stops the run from outside (a limit): the transcript says why.
    pub fn stop(&mut self, why: &str) {
        if !matches!(self.phase, Phase::Over(_)) {
            self.transcript.result = why.to_string();
            self.phase = Phase::Over(Outcome::Unfinished(why.to_string()));
        }
    }

    fn begin_game(&mut self) {
        let start = self.starts[self.current].clone();
        let line = match self.game {
            Game::Wythoff => format!("{} {}\n", start[0], start[1]),
            Game::Nim | Game::MisereNim => {
                let piles: Vec<String> = start.iter().map(u64::to_string).collect();
                format!("{} {}\n", start.len(), piles.join(" "))
            }
        };
        self.out.extend_from_slice(line.as_bytes());
        let right = if self.game.mover_wins(&start) {
            "first"
        } else {
            "second"
        };
        self.transcript = Transcript {
            game: self.current + 1,
            games: self.starts.len(),
            start: start.clone(),
            choice: None,
            right_choice: right.into(),
            moves: Vec::new(),
            result: String::new(),
            rules: Some(self.game.name().into()),
            lost_after: None,
        };
        self.position = start;
        self.game_moves = 0;
        self.judge_moves = 0;
        self.lost_at = None;
        self.phase = Phase::Choose;
    }

    fn fail(&mut self, why: String) {
        let games = self.starts.len();
        let why = format!("game {} of {games}: {why}", (self.current + 1).min(games));
        self.out.extend_from_slice(b"-1\n");
        self.transcript.result = why.clone();
        self.phase = Phase::Over(Outcome::Wrong(why));
    }

    fn on_token(&mut self, token: &[u8]) {
        self.tokens += 1;
        // Quoted in messages a terminal may show: escaped, and cut.
        let text = String::from_utf8_lossy(token);
        let mut shown = crate::markup::terminal(&text).into_owned();
        if let Some((cut, _)) = shown.char_indices().nth(SHOWN_TOKEN_CHARS) {
            shown.truncate(cut);
            shown.push('…');
        }
        match self.phase.clone() {
            Phase::Choose => match token {
                b"first" => {
                    self.transcript.choice = Some("first".into());
                    self.phase = Phase::Move(None);
                    self.note_choice(true);
                }
                b"second" => {
                    self.transcript.choice = Some("second".into());
                    self.note_choice(false);
                    self.judge_move();
                }
                _ => self.fail(format!("expected `first` or `second`, got `{shown}`")),
            },
            Phase::Move(first) => {
                let Some(number) = decimal(token) else {
                    return self.fail(format!("expected a number of your move, got `{shown}`"));
                };
                match first {
                    None => self.phase = Phase::Move(Some(number)),
                    Some(a) => self.submission_move(a, number),
                }
            }
            Phase::AfterLast => self.fail(format!(
                "`{shown}` after the last game (only the end of output may follow)"
            )),
            Phase::Over(_) => {}
        }
    }

    /// A wrong choice puts the submission in a lost position from the start.
    fn note_choice(&mut self, first: bool) {
        if first != self.game.mover_wins(&self.position) {
            self.lost_at = Some(0);
            self.transcript.lost_after = Some(0);
        }
    }

    fn count_move(&mut self) -> bool {
        self.run_moves += 1;
        self.game_moves += 1;
        if self.run_moves > MAX_MOVES {
            self.fail(format!("more than {MAX_MOVES} moves in the run"));
            return false;
        }
        true
    }

    fn submission_move(&mut self, a: u64, b: u64) {
        let text = format!("{a} {b}");
        let next = match self.game {
            Game::Wythoff => vec![a, b],
            Game::Nim | Game::MisereNim => {
                let n = self.position.len() as u64;
                if a == 0 || a > n {
                    return self.fail(format!("move `{text}`: there is no pile {a} (1 to {n})"));
                }
                let mut q = self.position.clone();
                q[(a - 1) as usize] = b;
                q
            }
        };
        if let Err(why) = self.game.legal(&self.position, &next) {
            let detail = match self.game {
                Game::Wythoff => why.to_string(),
                _ => format!(
                    "pile {a} has {} stones, so it may be left with 0 to {}",
                    self.position[(a - 1) as usize],
                    self.position[(a - 1) as usize].saturating_sub(1)
                ),
            };
            let shown = self.shown_position();
            return self.fail(format!("illegal move `{text}` at {shown}: {detail}"));
        }
        self.transcript.moves.push(PlayedMove {
            by: Side::Submission,
            text,
        });
        self.position = next;
        if !self.count_move() {
            return;
        }
        if Game::over(&self.position) {
            return match self.game {
                Game::MisereNim => self.fail("you took the last stone, and lose".into()),
                _ => self.won(),
            };
        }
        if self.lost_at.is_none() && self.game.mover_wins(&self.position) {
            self.lost_at = Some(self.game_moves);
            self.transcript.lost_after = Some(self.game_moves);
        }
        self.judge_move();
    }

    fn judge_move(&mut self) {
        if let Some(at) = self.lost_at
            && self.game_moves >= at + LOST_GRACE
        {
            return self.fail(format!(
                "you have been in a lost position for {LOST_GRACE} moves (since move {at})"
            ));
        }
        let next = match self.game.winning_move(&self.position) {
            Some(q) => q,
            None => {
                let early = self.judge_moves < PROBING_MOVES;
                match self.game.probing_move(&self.position, early, &mut self.rng) {
                    Some(q) => q,
                    None => return,
                }
            }
        };
        self.judge_moves += 1;
        let text = match self.game {
            Game::Wythoff => format!("{} {}", next[0], next[1]),
            _ => {
                let i = (0..next.len())
                    .find(|&i| next[i] != self.position[i])
                    .unwrap_or(0);
                format!("{} {}", i + 1, next[i])
            }
        };
        self.out.extend_from_slice(text.as_bytes());
        self.out.push(b'\n');
        self.transcript.moves.push(PlayedMove {
            by: Side::Judge,
            text,
        });
        self.position = next;
        if !self.count_move() {
            return;
        }
        if Game::over(&self.position) {
            return match self.game {
                Game::MisereNim => self.won(),
                _ => self.fail("the judge took the last stone, and you lose".into()),
            };
        }
        self.phase = Phase::Move(None);
    }

    fn won(&mut self) {
        self.transcript.result = "won".into();
        self.current += 1;
        if self.current == self.starts.len() {
            self.phase = Phase::AfterLast;
        } else {
            self.begin_game();
        }
    }

    fn shown_position(&self) -> String {
        let heaps: Vec<String> = self.position.iter().map(u64::to_string).collect();
        format!("position `{}`", heaps.join(" "))
    }
}

/// A decimal number as the protocol writes it: digits only, no sign.
fn decimal(token: &[u8]) -> Option<u64> {
    if token.is_empty() || token.len() > 20 || !token.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

#[cfg(test)]
mod tests;
