//! The judge's side of a described game played against a submission: the
//! protocol of `nim-play` with the described moves. A position line is
//! `n a_1 … a_n`; a move is `i x` (heap `i`, from 1, is left with `x`
//! tokens), or `i x y` when moves may split a heap (heap `i` keeps `x`
//! tokens and, if `y` is not 0, a new last heap of `y` tokens is added).
//! The judge plays a winning move whenever it has one (the analysis's),
//! and otherwise a legal move drawn to take much and end the game soon.

use std::sync::Arc;

use super::analysis::Analysis;
use crate::games::play::PlayRules;
use crate::generate::Rng;

/// A described game as the interactor plays it.
pub struct DescribedPlay {
    name: String,
    analysis: Arc<Analysis>,
}

impl DescribedPlay {
    /// `name` is what transcripts call the game (the problem's id).
    pub fn new(name: &str, analysis: Arc<Analysis>) -> DescribedPlay {
        DescribedPlay {
            name: name.to_string(),
            analysis,
        }
    }

    fn text(&self, s: &super::Step) -> String {
        if self.analysis.moves().splits() {
            format!("{} {} {}", s.heap + 1, s.left, s.right)
        } else {
            format!("{} {}", s.heap + 1, s.left)
        }
    }
}

impl PlayRules for DescribedPlay {
    fn name(&self) -> &str {
        &self.name
    }

    fn position_line(&self, p: &[u64]) -> String {
        let heaps: Vec<String> = p.iter().map(u64::to_string).collect();
        format!("{} {}", p.len(), heaps.join(" "))
    }

    fn arity(&self) -> usize {
        if self.analysis.moves().splits() { 3 } else { 2 }
    }

    fn apply(&self, p: &[u64], mv: &[u64]) -> Result<Vec<u64>, String> {
        self.analysis.legal_step(p, mv).map(|s| s.apply(p))
    }

    fn mover_wins(&self, p: &[u64]) -> bool {
        // Every position met in play is smaller than a start position the
        // judge checked it can decide.
        self.analysis.mover_wins(p).unwrap_or(false)
    }

    fn over(&self, p: &[u64]) -> bool {
        !self.analysis.has_move(p)
    }

    fn misere(&self) -> bool {
        self.analysis.moves().ending == crate::games::search::Ending::Misere
    }

    fn last_move(&self) -> &'static str {
        "made the last move"
    }

    fn winning_move(&self, p: &[u64]) -> Option<(String, Vec<u64>)> {
        if !self.mover_wins(p) {
            return None;
        }
        let steps = self.analysis.winning_steps(p)?;
        // The one that takes the most: short games.
        let s = steps.iter().min_by_key(|s| (s.left + s.right, s.heap))?;
        Some((self.text(s), s.apply(p)))
    }

    fn probing_move(&self, p: &[u64], _early: bool, rng: &mut Rng) -> Option<(String, Vec<u64>)> {
        let s = self.analysis.random_step(p, rng)?;
        Some((self.text(&s), s.apply(p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::described::{Move, Rules};
    use crate::games::play::{Interactor, Outcome};
    use crate::games::search::Ending;

    fn kayles() -> Arc<Analysis> {
        let moves: Vec<Move> = serde_yaml::from_str("[{octal: \"0.77\"}]").expect("moves");
        let rules = Rules {
            moves,
            ending: Ending::Normal,
        };
        Arc::new(Analysis::new(rules.bind(&[], &[]).expect("bound")))
    }

    /// Plays `starts` with a player that moves as the analysis says (or
    /// badly, when `blunder`), reading the judge's bytes as a program would.
    fn play(starts: Vec<Vec<u64>>, blunder: bool) -> Outcome {
        let analysis = kayles();
        let rules = Arc::new(DescribedPlay::new("kayles-play", Arc::clone(&analysis)));
        let mut judge = Interactor::with_rules(rules.clone(), starts, 5);
        let mut tokens: std::collections::VecDeque<u64> = Default::default();
        let pull = |judge: &mut Interactor, tokens: &mut std::collections::VecDeque<u64>| {
            let out = String::from_utf8(judge.take_output()).unwrap_or_default();
            tokens.extend(out.split_whitespace().filter_map(|t| t.parse::<u64>().ok()));
        };
        pull(&mut judge, &mut tokens);
        let games = tokens.pop_front().unwrap_or(0);
        let mut rng = Rng::new(3);
        for _ in 0..games {
            let n = tokens.pop_front().unwrap_or(0);
            let mut pos: Vec<u64> = (0..n).map(|_| tokens.pop_front().unwrap_or(0)).collect();
            let first = analysis.mover_wins(&pos).unwrap_or(false);
            judge.feed(if first { b"first\n" } else { b"second\n" });
            pull(&mut judge, &mut tokens);
            let mut mine = first;
            loop {
                if judge.outcome().is_some() {
                    return judge.outcome().cloned().unwrap_or(Outcome::Accepted);
                }
                if rules.over(&pos) {
                    break;
                }
                if mine {
                    let (text, next) = if blunder {
                        rules.probing_move(&pos, false, &mut rng).expect("a move")
                    } else {
                        rules.winning_move(&pos).expect("a winning move")
                    };
                    judge.feed(format!("{text}\n").as_bytes());
                    pos = next;
                } else {
                    let mv: Vec<u64> = (0..3).map(|_| tokens.pop_front().unwrap_or(0)).collect();
                    pos = rules.apply(&pos, &mv).expect("the judge moves legally");
                }
                pull(&mut judge, &mut tokens);
                mine = !mine;
            }
        }
        judge.end_of_output();
        judge.outcome().cloned().unwrap_or(Outcome::Accepted)
    }

    #[test]
    fn a_perfect_player_wins_every_game_and_a_random_one_loses() {
        let starts = vec![
            vec![7],
            vec![4, 4],
            vec![1, 2, 3],
            vec![30, 11, 9],
            vec![12],
        ];
        assert_eq!(play(starts.clone(), false), Outcome::Accepted);
        assert!(matches!(play(starts, true), Outcome::Wrong(_)));
    }

    #[test]
    fn a_start_with_no_move_is_over_once_the_sides_are_chosen() {
        // Dawson's Kayles: a single pin cannot be played.
        let moves: Vec<Move> = serde_yaml::from_str("[{octal: \"0.07\"}]").expect("moves");
        let rules = Rules {
            moves,
            ending: Ending::Normal,
        };
        let analysis = Arc::new(Analysis::new(rules.bind(&[], &[]).expect("bound")));
        let play = |choice: &[u8]| {
            let rules = Arc::new(DescribedPlay::new("dawson", Arc::clone(&analysis)));
            let mut judge = Interactor::with_rules(rules, vec![vec![1, 1]], 1);
            judge.take_output();
            judge.feed(choice);
            judge.end_of_output();
            judge.outcome().cloned()
        };
        assert_eq!(play(b"second\n"), Some(Outcome::Accepted));
        assert!(matches!(play(b"first\n"), Some(Outcome::Wrong(w)) if w.contains("no move")));
    }

    #[test]
    fn illegal_moves_say_why() {
        let rules = DescribedPlay::new("kayles-play", kayles());
        assert_eq!(rules.apply(&[5], &[1, 1, 2]), Ok(vec![1, 2]));
        let e = rules.apply(&[5], &[1, 0, 1]).expect_err("takes 4");
        assert!(e.contains("not a move of this game"), "{e}");
        let e = rules.apply(&[5], &[2, 0, 1]).expect_err("no heap 2");
        assert!(e.contains("no heap 2"), "{e}");
        let e = rules
            .apply(&[5], &[1, 3, 3])
            .expect_err("more than the heap");
        assert!(e.contains("leaves fewer"), "{e}");
        assert_eq!(rules.apply(&[5], &[1, 0, 3]), Ok(vec![0, 3]));
    }
}
