//! The checker of a described game's move question: the output is the
//! word for a lost position, or any winning move, per case. The game's
//! description decides (`catalog::described`), never the answer file;
//! the answer is still judged by the same rules, so a reference that
//! disagrees is the judge's fault (`IE`), not the submission's.

use std::sync::Arc;

use super::{failed, wrong};
use crate::catalog::described::GameSpec;
use crate::check::{CheckCase, CheckOutcome, Checker};

/// Judges moves of one described game.
pub struct DescribedMoves {
    game: Arc<GameSpec>,
}

impl DescribedMoves {
    pub fn new(game: Arc<GameSpec>) -> DescribedMoves {
        DescribedMoves { game }
    }
}

impl Checker for DescribedMoves {
    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome {
        let Ok(input) = std::str::from_utf8(case.input) else {
            return failed("the test's input is not text");
        };
        let judge = |output: &[u8]| {
            let text = String::from_utf8_lossy(output);
            self.game.judge_moves(input, &text)
        };
        if !case.answer.iter().all(u8::is_ascii_whitespace) {
            match judge(case.answer) {
                Ok(Ok(())) => {}
                Ok(Err(why)) => return failed(format!("the reference answer is rejected: {why}")),
                Err(undecided) => return failed(undecided.to_string()),
            }
        }
        match judge(case.output) {
            Ok(Ok(())) => CheckOutcome::accepted(),
            Ok(Err(why)) => wrong(why.to_string()),
            Err(undecided) => failed(undecided.to_string()),
        }
    }
}
