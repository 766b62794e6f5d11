//! `nim-winning-move`: print `lose`, or any move `i x` that wins.
//!
//! The verdict is recomputed from the input, never taken from the answer
//! file: many moves may win, and the reference names only one. The answer
//! is still checked by the same rules, so a broken reference surfaces as a
//! checker failure (`IE`) instead of silently judging students against it.

use super::{failed, parse_int, read_counted_list, wrong};
use crate::check::scan::{Tokens, quote};
use crate::check::{CheckCase, CheckOutcome, Checker};

/// Judges one normal-Nim position and the move played in it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct NimWinningMove;

impl Checker for NimWinningMove {
    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome {
        let piles = match read_counted_list(case.input) {
            Ok(piles) => piles,
            Err(reason) => return failed(format!("malformed input: {reason}")),
        };
        let position = Position::new(&piles);
        let has_reference = Tokens::new(case.answer).next().is_some();
        if has_reference && let Err(reason) = position.judge(case.answer) {
            return failed(format!("the reference answer is rejected: {reason}"));
        }
        match position.judge(case.output) {
            Ok(()) => CheckOutcome::accepted(),
            Err(reason) => wrong(reason.to_string()),
        }
    }
}

/// Why an answer is wrong for a position: the student's message (or,
/// for the reference's answer, the reason the checker fails).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Rejected {
    #[error("empty output: expected `lose` or a move `i x`")]
    Empty,
    #[error("expected a move, got `lose` (the position is winning: its nim-sum is {0})")]
    LoseWhenWinning(u64),
    /// The first token, quoted.
    #[error("expected `lose` (the nim-sum is 0, so every move loses), got {0}")]
    MoveWhenLosing(String),
    #[error("expected a move `i x` (two integers), got only {0}")]
    HalfMove(String),
    #[error("the pile number i must be an integer, got {0}")]
    PileNotInteger(String),
    #[error("the stones left x must be an integer, got {0}")]
    LeftNotInteger(String),
    #[error("pile {pile} does not exist (piles are numbered 1..{piles})")]
    NoSuchPile { pile: String, piles: usize },
    #[error("x must be at least 0, got {0}")]
    Negative(String),
    #[error("x must be smaller than a_i (pile {pile} has {stones} stones, got x = {x})")]
    NotSmaller { pile: usize, stones: u64, x: String },
    #[error("the move leaves nim-sum {0}, not a losing position")]
    NotLosing(u64),
    #[error("extra output after {after}: {extra}")]
    Extra { after: &'static str, extra: String },
}

/// The piles and their nim-sum (xor), which decides everything in Nim.
struct Position<'a> {
    piles: &'a [u64],
    nim_sum: u64,
}

impl<'a> Position<'a> {
    fn new(piles: &'a [u64]) -> Self {
        let nim_sum = piles.iter().fold(0, |acc, &a| acc ^ a);
        Position { piles, nim_sum }
    }

    /// `Ok` when `text` is a right answer for this position, else why not.
    fn judge(&self, text: &[u8]) -> Result<(), Rejected> {
        let mut tokens = Tokens::new(text);
        let Some(first) = tokens.next() else {
            return Err(Rejected::Empty);
        };
        if first.bytes == b"lose" {
            if self.nim_sum != 0 {
                return Err(Rejected::LoseWhenWinning(self.nim_sum));
            }
            return no_more(tokens, "`lose`");
        }
        if self.nim_sum == 0 {
            return Err(Rejected::MoveWhenLosing(quote(first.bytes)));
        }
        let Some(second) = tokens.next() else {
            return Err(Rejected::HalfMove(quote(first.bytes)));
        };
        self.judge_move(first.bytes, second.bytes)?;
        no_more(tokens, "the move")
    }

    /// Checks that `i x` is a legal move leaving a nim-sum of zero.
    fn judge_move(&self, i: &[u8], x: &[u8]) -> Result<(), Rejected> {
        let n = self.piles.len();
        let index = parse_int(i).ok_or_else(|| Rejected::PileNotInteger(quote(i)))?;
        let left = parse_int(x).ok_or_else(|| Rejected::LeftNotInteger(quote(x)))?;
        let pile = usize::try_from(index)
            .ok()
            .filter(|i| (1..=n).contains(i))
            .ok_or_else(|| Rejected::NoSuchPile {
                pile: shown(i),
                piles: n,
            })?;
        let stones = self.piles[pile - 1];
        if left < 0 {
            return Err(Rejected::Negative(shown(x)));
        }
        let left = u64::try_from(left)
            .ok()
            .filter(|&left| left < stones)
            .ok_or_else(|| Rejected::NotSmaller {
                pile,
                stones,
                x: shown(x),
            })?;
        let after = self.nim_sum ^ stones ^ left;
        if after != 0 {
            return Err(Rejected::NotLosing(after));
        }
        Ok(())
    }
}

/// Rejects anything after a complete answer.
fn no_more(mut tokens: Tokens<'_>, after: &'static str) -> Result<(), Rejected> {
    match tokens.next() {
        None => Ok(()),
        Some(extra) => Err(Rejected::Extra {
            after,
            extra: quote(extra.bytes),
        }),
    }
}

/// An integer token as written, unquoted when short (it is all digits).
fn shown(token: &[u8]) -> String {
    if token.len() <= 24 {
        String::from_utf8_lossy(token).into_owned()
    } else {
        quote(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckVerdict;
    use std::path::Path;

    fn check(input: &str, answer: &str, output: &str) -> CheckOutcome {
        let nowhere = Path::new("/nonexistent");
        let case = CheckCase {
            input: input.as_bytes(),
            output: output.as_bytes(),
            answer: answer.as_bytes(),
            input_path: nowhere,
            output_path: nowhere,
            answer_path: nowhere,
            scratch: nowhere,
        };
        NimWinningMove.check(&case)
    }

    /// Nim-sum 2; the only winning move is `1 1` (3 -> 1).
    const WINNING: &str = "3\n3 4 5\n";

    fn assert_wa(outcome: CheckOutcome, message: &str) {
        assert_eq!(outcome.verdict, CheckVerdict::WrongAnswer, "{outcome:?}");
        assert_eq!(outcome.message, message);
    }

    #[test]
    fn accepts_any_winning_move() {
        // Nim-sum 7: three piles can be reduced to reach nim-sum 0.
        let input = "4\n3 5 6 7";
        for output in ["2 2", "3 1\n", " 4\r\n 0 \n"] {
            assert_eq!(
                check(input, "4 0\n", output),
                CheckOutcome::accepted(),
                "{output:?}"
            );
        }
        assert_eq!(check(WINNING, "1 1\n", "1 1\n"), CheckOutcome::accepted());
    }

    #[test]
    fn accepts_lose_only_in_losing_positions() {
        assert_eq!(
            check("3\n1 2 3\n", "lose\n", "lose\n"),
            CheckOutcome::accepted()
        );
        assert_eq!(check("2 7\n7", "lose", "  lose"), CheckOutcome::accepted());
        assert_wa(
            check(WINNING, "1 1\n", "lose\n"),
            "expected a move, got `lose` (the position is winning: its nim-sum is 2)",
        );
        assert_wa(
            check("3\n1 2 3\n", "lose\n", "1 0\n"),
            "expected `lose` (the nim-sum is 0, so every move loses), got \"1\"",
        );
        assert_wa(
            check("3\n1 2 3\n", "lose\n", "Lose\n"),
            "expected `lose` (the nim-sum is 0, so every move loses), got \"Lose\"",
        );
    }

    #[test]
    fn rejects_bad_moves_with_reasons() {
        assert_wa(
            check(WINNING, "1 1\n", "0 1\n"),
            "pile 0 does not exist (piles are numbered 1..3)",
        );
        assert_wa(
            check(WINNING, "1 1\n", "4 1\n"),
            "pile 4 does not exist (piles are numbered 1..3)",
        );
        assert_wa(
            check(
                WINNING,
                "1 1\n",
                "99999999999999999999999999999999999999999 1\n",
            ),
            "pile \"99999999999999999999999999999999999999999\" does not exist \
             (piles are numbered 1..3)",
        );
        assert_wa(
            check(WINNING, "1 1\n", "2 6\n"),
            "x must be smaller than a_i (pile 2 has 4 stones, got x = 6)",
        );
        assert_wa(
            check(WINNING, "1 1\n", "1 3\n"),
            "x must be smaller than a_i (pile 1 has 3 stones, got x = 3)",
        );
        assert_wa(
            check(WINNING, "1 1\n", "1 -1\n"),
            "x must be at least 0, got -1",
        );
        assert_wa(
            check(WINNING, "1 1\n", "1 2\n"),
            "the move leaves nim-sum 3, not a losing position",
        );
        assert_wa(
            check(WINNING, "1 1\n", "3 2\n"),
            "the move leaves nim-sum 5, not a losing position",
        );
    }

    #[test]
    fn rejects_malformed_output() {
        assert_wa(
            check(WINNING, "1 1\n", ""),
            "empty output: expected `lose` or a move `i x`",
        );
        assert_wa(
            check(WINNING, "1 1\n", "1\n"),
            "expected a move `i x` (two integers), got only \"1\"",
        );
        assert_wa(
            check(WINNING, "1 1\n", "one 1\n"),
            "the pile number i must be an integer, got \"one\"",
        );
        assert_wa(
            check(WINNING, "1 1\n", "1 1.0\n"),
            "the stones left x must be an integer, got \"1.0\"",
        );
        assert_wa(
            check(WINNING, "1 1\n", "1 1\n1 1\n"),
            "extra output after the move: \"1\"",
        );
        assert_wa(
            check("1\n0\n", "lose\n", "lose lose\n"),
            "extra output after `lose`: \"lose\"",
        );
    }

    #[test]
    fn malformed_input_is_a_checker_failure() {
        for input in ["", "x\n", "3\n1 2\n", "2\n1 2 3\n", "1\n-4\n"] {
            let got = check(input, "lose\n", "lose\n");
            assert_eq!(got.verdict, CheckVerdict::Failed, "{input:?}");
            assert!(
                got.message.starts_with("malformed input: "),
                "{}",
                got.message
            );
        }
    }

    #[test]
    fn wrong_reference_is_a_checker_failure() {
        let got = check(WINNING, "lose\n", "1 1\n");
        assert_eq!(got.verdict, CheckVerdict::Failed);
        assert_eq!(
            got.message,
            "the reference answer is rejected: expected a move, got `lose` \
             (the position is winning: its nim-sum is 2)"
        );
        assert_eq!(check(WINNING, "", "1 1\n"), CheckOutcome::accepted());
    }

    #[test]
    fn large_position() {
        let n = 100_000u64;
        let piles: Vec<u64> = (0..n).map(|i| 1_000_000_000 - i * 3).collect();
        let nim = piles.iter().fold(0, |acc, &a| acc ^ a);
        let (i, a) = piles
            .iter()
            .enumerate()
            .find(|&(_, &a)| a ^ nim < a)
            .map(|(i, &a)| (i + 1, a))
            .unwrap_or((0, 0));
        let mut input = format!("{n}\n");
        for a in &piles {
            input.push_str(&format!("{a} "));
        }
        let output = format!("{i} {}\n", a ^ nim);
        assert_eq!(check(&input, &output, &output), CheckOutcome::accepted());
    }
}
