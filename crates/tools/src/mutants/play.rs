//! The mutants of a player (the interactive problems `nim-play`,
//! `misere-nim-play`, `wythoff-play`).
//!
//! A player has no answers to compare with the reference's: it is right
//! exactly when it wins. So a mutant that passed every test is played
//! against the built-in interactor from every small start position (every
//! pile multiset up to a bound, every small heap pair), from positions
//! across the whole range the constraints allow (the highest allowed bit
//! set, powers of two, every number at its bound: a player that keeps a
//! pile in too few bits wins every small game and loses there) and from a
//! seeded sample of large ones drawn by the problem's own generator family. It is
//! *equivalent* only if it wins every one of those games; otherwise it
//! *survived*, and the game it lost is shrunk to the position where it went
//! wrong, so that `--harden` can add that one game as a test.
//!
//! Games are played as the tests play them, up to 100 in one run: one
//! process per hundred games keeps the search to a few seconds a mutant.

use std::path::Path;

use crate::games::play::{self, Game, Side, Transcript};
use crate::generate::{Params, Rng};
use crate::judge::{self, Because, Context, JudgeError, Prepared, TestResult};
use crate::language::{CompileOutcome, Compiled};
use crate::stress::{self, Counterexample};
use crate::verdict::Verdict;

use super::{Evidence, Options, Outcome};

/// Most games in one run (the statement's bound on `T`).
const RUN_GAMES: usize = 100;
/// Nim start positions searched exhaustively: every multiset of 1 to
/// `SMALL_PILES` piles of 1 to `SMALL_STONES` stones.
const SMALL_PILES: usize = 4;
const SMALL_STONES: u64 = 7;
/// Wythoff start positions searched exhaustively: every ordered pair of
/// heaps up to this size (the order matters: positions are not sorted).
const SMALL_HEAP: u64 = 20;
/// Most start positions taken from the inputs across the whole range.
const RANGE_GAMES: usize = 3 * RUN_GAMES;

/// The built-in game a problem is played with, if it is a played problem.
pub fn game_of(problem: &crate::problem::Problem) -> Option<Game> {
    match &problem.interactor {
        Some(crate::problem::InteractorSpec::Builtin(name)) => Game::from_name(name),
        _ => None,
    }
}

/// Every small start position, smallest first (by stones, then piles).
pub fn small_positions(game: Game) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = match game {
        Game::Wythoff => (0..=SMALL_HEAP)
            .flat_map(|a| (0..=SMALL_HEAP).map(move |b| vec![a, b]))
            .filter(|p| p[0] + p[1] > 0)
            .collect(),
        Game::Nim | Game::MisereNim => {
            // Non-decreasing sequences are the multisets, each once.
            let mut all = Vec::new();
            let mut layer: Vec<Vec<u64>> = vec![vec![]];
            for _ in 0..SMALL_PILES {
                layer = layer
                    .iter()
                    .flat_map(|p| {
                        let low = p.last().copied().unwrap_or(1);
                        (low..=SMALL_STONES).map(move |a| {
                            let mut q = p.clone();
                            q.push(a);
                            q
                        })
                    })
                    .collect();
                all.extend(layer.iter().cloned());
            }
            all
        }
    };
    out.sort_by_key(|p| (p.iter().sum::<u64>(), p.len(), p.clone()));
    out
}

/// Start positions across the whole range and format the constraints
/// allow: the games of the inputs `mutants` compares answers on
/// ([`crate::catalog::extremes::range_inputs`]), smallest inputs first, each
/// position once, at most [`RANGE_GAMES`].
pub fn range_positions(game: Game, seed: u64) -> Vec<Vec<u64>> {
    let Some(format) = crate::catalog::entry(game.name()).and_then(|e| e.input_format()) else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for text in crate::catalog::extremes::range_inputs(&format, seed) {
        for p in play::parse_games(game, &text).unwrap_or_default() {
            if out.len() < RANGE_GAMES && seen.insert(p.clone()) {
                out.push(p);
            }
        }
    }
    out
}

/// Large start positions from the problem's generator family, in a few
/// settings (sizes, traps), seeded: `rounds` runs of each setting.
pub fn random_positions(game: Game, seed: u64, rounds: u64) -> Vec<Vec<u64>> {
    let settings: &[&str] = match game {
        Game::Nim => &[
            "{games: 100}",
            "{games: 100, n: [1, 8], max: 1000}",
            "{games: 100, n: [50, 100], min: 900000000}",
        ],
        Game::MisereNim => &[
            "{games: 100}",
            "{games: 100, n: [1, 8], max: 1000, endgame: 0.5}",
            "{games: 100, n: [2, 20], endgame: 0.5, ones: 0.5}",
        ],
        Game::Wythoff => &[
            "{games: 100}",
            "{games: 100, max: 100000}",
            "{games: 100, traps: 0.7, bits: 53}",
            "{games: 100, traps: 0.7, bits: 64}",
        ],
    };
    let Some(family) = crate::catalog::entry(game.name()).and_then(|e| e.families.first()) else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (k, setting) in settings.iter().enumerate() {
        let Ok(map) = serde_yaml::from_str(setting) else {
            continue;
        };
        let params = Params(map);
        for r in 0..rounds {
            let mut rng = Rng::new(seed.wrapping_mul(1_000_003) ^ ((k as u64) << 32 | r));
            let Ok(text) = (family.generate)(&params, &mut rng) else {
                continue;
            };
            for p in play::parse_games(game, &text).unwrap_or_default() {
                if seen.insert(p.clone()) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// A position as the judge writes it (`n a_1 … a_n`, or `a b`).
pub fn position_line(game: Game, p: &[u64]) -> String {
    let heaps: Vec<String> = p.iter().map(u64::to_string).collect();
    match game {
        Game::Wythoff => heaps.join(" "),
        _ => format!("{} {}", p.len(), heaps.join(" ")),
    }
}

/// A test input holding `starts`, one game each.
fn games_input(game: Game, starts: &[Vec<u64>]) -> String {
    let mut s = format!("{}\n", starts.len());
    for p in starts {
        s.push_str(&position_line(game, p));
        s.push('\n');
    }
    s
}

/// What one mutant is played with.
struct Player<'a> {
    prepared: &'a Prepared,
    ctx: &'a Context,
    program: Compiled,
    game: Game,
    slots: Option<std::sync::Arc<judge::Slots>>,
}

impl Player<'_> {
    fn run(&self, name: &str, starts: &[Vec<u64>]) -> Result<TestResult, JudgeError> {
        // A game is a test run like any other: it takes a slot of the
        // measure's (see `Options::slots`).
        let _slot = self.slots.as_ref().and_then(|s| s.take(None));
        judge::play_input(
            self.prepared,
            self.ctx,
            &self.program,
            &judge::PlayedGame::Builtin(self.game),
            name,
            &games_input(self.game, starts),
        )
    }
}

/// Plays a mutant that passed every test on the small and the random start
/// positions; the first game it loses makes it a survivor. `test_name` is
/// the name `--harden` will give the test of that game: its seed is the
/// one the shrunk game is checked with.
pub fn search(
    prepared: &Prepared,
    ctx: &Context,
    game: Game,
    path: &Path,
    test_name: &str,
    options: &Options,
) -> Result<Outcome, JudgeError> {
    let lang = ctx
        .languages
        .detect(path)
        .map_err(|e| JudgeError::Submission(Because::cause(e)))?;
    let program = match crate::language::compile(lang, path, &ctx.cache, &ctx.sandbox) {
        Ok(CompileOutcome::Ready(c)) => c,
        Ok(CompileOutcome::Failed { .. }) => return Ok(Outcome::Unviable),
        Err(e) => return Err(JudgeError::Submission(Because::cause(e))),
    };
    let player = Player {
        prepared,
        ctx,
        program,
        game,
        slots: options.slots.clone(),
    };
    let small = small_positions(game);
    let range = range_positions(game, options.seed);
    let random = random_positions(game, options.seed, options.random_rounds.div_ceil(3).max(1));
    let mut unconfirmed: Option<Counterexample> = None;
    for (what, starts) in [("small", &small), ("range", &range), ("random", &random)] {
        for (batch, chunk) in starts.chunks(RUN_GAMES).enumerate() {
            let mut rest: &[Vec<u64>] = chunk;
            let mut part = 0;
            while !rest.is_empty() {
                let name = format!("search-{what}-{}-{part}", batch + 1);
                part += 1;
                let r = player.run(&name, rest)?;
                if r.verdict == Verdict::AC {
                    break;
                }
                if r.verdict == Verdict::IE {
                    return Ok(Outcome::Error {
                        message: format!("{name}: {}", r.message),
                    });
                }
                // A run that timed out or was not started may be the busy
                // machine's doing: unless its loss is confirmed alone, it
                // is not one to report.
                let lasting = !stress::may_be_transient(&r);
                let Some(t) = r.game.clone() else {
                    // No game to blame (it crashed before the first line):
                    // the first start of the run is lost.
                    if let Some(c) = confirm(&player, test_name, &rest[0], &rest[0])? {
                        return Ok(survived(c));
                    }
                    if lasting {
                        return Ok(survived(unconfirmed_loss(game, &rest[0], &r)));
                    }
                    rest = &rest[1..];
                    continue;
                };
                let start = rest
                    .get(t.game.saturating_sub(1))
                    .cloned()
                    .unwrap_or_default();
                for candidate in shrink_candidates(game, &t) {
                    if let Some(c) = confirm(&player, test_name, &candidate, &start)? {
                        return Ok(survived(c));
                    }
                }
                // Lost in the run but not alone: the judge's probing moves
                // differ there. Keep looking for a loss that stands alone.
                if lasting {
                    unconfirmed.get_or_insert_with(|| unconfirmed_loss(game, &start, &r));
                }
                rest = &rest[t.game.clamp(1, rest.len())..];
            }
        }
    }
    if let Some(c) = unconfirmed {
        return Ok(survived(c));
    }
    Ok(Outcome::Equivalent(Evidence {
        small_inputs: small.len(),
        range_inputs: range.len(),
        random_inputs: random.len(),
        played: true,
    }))
}

fn survived(c: Counterexample) -> Outcome {
    Outcome::Survived {
        counterexample: Box::new(c),
    }
}

/// Plays `candidate` alone, under the seed of the test `--harden` will
/// write and under another one: a loss in both is a game that kills the
/// mutant whatever the judge's probing moves.
fn confirm(
    player: &Player<'_>,
    test_name: &str,
    candidate: &[u64],
    start: &[u64],
) -> Result<Option<Counterexample>, JudgeError> {
    let one = [candidate.to_vec()];
    let mut last = None;
    for name in [test_name, "search-confirm"] {
        let r = player.run(name, &one)?;
        if r.verdict == Verdict::AC || r.verdict == Verdict::IE {
            return Ok(None);
        }
        last = Some(r);
    }
    let Some(r) = last else {
        return Ok(None);
    };
    let game = player.game;
    let found_from = if candidate == start {
        String::new()
    } else {
        format!(
            " (reached in the game from `{}`)",
            position_line(game, start)
        )
    };
    Ok(Some(Counterexample {
        input: games_input(game, &one),
        expected: format!(
            "a won game (the winning choice is `{}`)",
            if game.mover_wins(candidate) {
                "first"
            } else {
                "second"
            }
        ),
        actual: r.message.clone(),
        verdict: r.verdict,
        message: format!(
            "loses the game from `{}`{found_from}: {}",
            position_line(game, candidate),
            r.message
        ),
        found_tokens: start.len(),
        tokens: candidate.len(),
        reproduce: String::new(),
    }))
}

/// A lost game that did not lose again alone: reported as found.
fn unconfirmed_loss(game: Game, start: &[u64], r: &TestResult) -> Counterexample {
    Counterexample {
        input: games_input(game, &[start.to_vec()]),
        expected: "a won game".into(),
        actual: r.message.clone(),
        verdict: r.verdict,
        message: format!(
            "lost the game from `{}` in a run of many games (alone it won): {}",
            position_line(game, start),
            r.message
        ),
        found_tokens: start.len(),
        tokens: start.len(),
        reproduce: String::new(),
    }
}

/// Start positions that may lose alone, smallest first as found: where the
/// player first moved from a won position into a lost one (or chose the
/// wrong side), where the game stopped, and where it began. Empty Nim piles
/// are dropped (a start position has none).
fn shrink_candidates(game: Game, t: &Transcript) -> Vec<Vec<u64>> {
    let mut pos = t.start.clone();
    let chose_first = t.choice.as_deref() == Some("first");
    let mut blunder =
        (t.choice.is_some() && chose_first != game.mover_wins(&pos)).then(|| pos.clone());
    for m in &t.moves {
        let before = pos.clone();
        let numbers: Vec<u64> = m
            .text
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        match (game, numbers.as_slice()) {
            (Game::Wythoff, [a, b]) => pos = vec![*a, *b],
            (_, [i, x]) if (1..=pos.len() as u64).contains(i) => pos[(*i - 1) as usize] = *x,
            _ => break,
        }
        if m.by == Side::Submission
            && blunder.is_none()
            && game.mover_wins(&before)
            && game.mover_wins(&pos)
        {
            blunder = Some(before);
        }
    }
    let mut out: Vec<Vec<u64>> = Vec::new();
    for p in blunder.into_iter().chain([pos, t.start.clone()]) {
        let p: Vec<u64> = match game {
            Game::Wythoff => p,
            _ => p.into_iter().filter(|&a| a > 0).collect(),
        };
        if !p.is_empty() && p.iter().any(|&a| a > 0) && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::play::PlayedMove;

    #[test]
    fn small_positions_are_every_multiset_smallest_first() {
        let nim = small_positions(Game::Nim);
        // Multisets of 1..=4 piles of 1..=7 stones: C(7+k-1, k) each.
        assert_eq!(nim.len(), 7 + 28 + 84 + 210);
        assert_eq!(nim[0], vec![1]);
        assert_eq!(&nim[1..3], &[vec![2], vec![1, 1]]);
        assert!(nim.iter().all(|p| p.windows(2).all(|w| w[0] <= w[1])));
        let w = small_positions(Game::Wythoff);
        assert_eq!(w.len(), 21 * 21 - 1);
        assert!(w.contains(&vec![3, 5]) && w.contains(&vec![5, 3]));
        assert_eq!(&w[..2], &[vec![0, 1], vec![1, 0]]);
    }

    #[test]
    fn range_positions_reach_the_top_bit_and_stay_legal() {
        for (game, top) in [
            (Game::Nim, 1u64 << 29),
            (Game::MisereNim, 1 << 29),
            (Game::Wythoff, 1 << 59),
        ] {
            let r = range_positions(game, 1);
            assert!(
                !r.is_empty() && r.len() <= RANGE_GAMES,
                "{game:?} {}",
                r.len()
            );
            let input = games_input(game, &r[..r.len().min(RUN_GAMES)]);
            assert!(play::parse_games(game, &input).is_ok(), "{game:?}");
            // A position whose numbers all have the highest allowed bit.
            assert!(
                r.iter().any(|p| p.iter().all(|&x| x >= top)),
                "{game:?}: {r:?}"
            );
        }
    }

    #[test]
    fn random_positions_are_legal_seeded_and_large() {
        for game in [Game::Nim, Game::MisereNim, Game::Wythoff] {
            let a = random_positions(game, 1, 2);
            assert!(a.len() > 300, "{game:?} {}", a.len());
            assert_eq!(a, random_positions(game, 1, 2));
            assert_ne!(a, random_positions(game, 2, 2));
            let input = games_input(game, &a[..100]);
            assert!(play::parse_games(game, &input).is_ok(), "{game:?}");
            assert!(a.iter().any(|p| p.iter().any(|&x| x > 1_000_000)));
        }
    }

    fn transcript(start: Vec<u64>, choice: &str, moves: &[(Side, &str)]) -> Transcript {
        Transcript {
            game: 1,
            games: 1,
            start,
            choice: Some(choice.into()),
            right_choice: String::new(),
            moves: moves
                .iter()
                .map(|(by, text)| PlayedMove {
                    by: *by,
                    text: (*text).into(),
                })
                .collect(),
            result: String::new(),
            rules: None,
            lost_after: None,
        }
    }

    #[test]
    fn the_game_shrinks_to_the_first_wrong_move() {
        use Side::{Judge, Submission};
        // 1 2 3 is lost for the mover: the judge empties pile 3, the player
        // faces 1 2 0 (won: leave 1 1) but takes pile 1, leaving 0 2 0.
        let t = transcript(
            vec![1, 2, 3],
            "second",
            &[(Judge, "3 0"), (Submission, "1 0"), (Judge, "2 0")],
        );
        assert_eq!(
            shrink_candidates(Game::Nim, &t),
            vec![vec![1, 2], vec![1, 2, 3]]
        );
        // A wrong choice is the mistake: the start itself.
        let t = transcript(vec![1, 1], "first", &[(Submission, "1 0"), (Judge, "2 0")]);
        assert_eq!(shrink_candidates(Game::Nim, &t), vec![vec![1, 1]]);
        // Wythoff keeps empty heaps and the order.
        let t = transcript(vec![4, 2], "first", &[(Submission, "0 2")]);
        assert_eq!(
            shrink_candidates(Game::Wythoff, &t),
            vec![vec![4, 2], vec![0, 2]]
        );
    }
}
