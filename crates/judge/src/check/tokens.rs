//! The default checker: whitespace-separated tokens, compared in order.
//!
//! Layout is ignored entirely (spaces, tabs, CRLF, blank lines, a missing
//! final newline), because most problems only care about the values and
//! students should not lose points to their platform's line endings. The
//! comparison streams both texts once and allocates nothing until it has
//! found the first difference.

use super::diff::{self, Style};
use super::scan::{Focus, Tokens, quote};
use super::{CheckCase, CheckOutcome, CheckVerdict, Checker};

/// Token-by-token comparison, case-sensitive.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokensChecker;

impl Checker for TokensChecker {
    fn reads_input(&self) -> bool {
        false
    }

    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome {
        check_tokens(case.answer, case.output, same_bytes, Style::Tokens)
    }
}

/// Whether an output token stands for the expected one; a note explains a
/// rejection when the bare values do not say enough (e.g. a tolerance).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokenMatch {
    Equal,
    Differ(Option<String>),
}

/// Exact byte equality, the rule of the default checker.
pub(crate) fn same_bytes(expected: &[u8], got: &[u8]) -> TokenMatch {
    if expected == got {
        TokenMatch::Equal
    } else {
        TokenMatch::Differ(None)
    }
}

/// The first place where output and answer disagree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mismatch {
    pub message: String,
    pub answer_at: Focus,
    pub output_at: Focus,
}

impl Mismatch {
    /// Turns the mismatch into an outcome with a diff window attached.
    pub fn into_outcome(
        self,
        verdict: CheckVerdict,
        answer: &[u8],
        output: &[u8],
        style: Style,
    ) -> CheckOutcome {
        let diff = diff::window(answer, self.answer_at, output, self.output_at, style);
        CheckOutcome {
            verdict,
            message: self.message,
            diff,
        }
    }
}

/// Compares token streams with `same` and reports `AC` or `WA`.
pub(crate) fn check_tokens(
    answer: &[u8],
    output: &[u8],
    same: impl Fn(&[u8], &[u8]) -> TokenMatch,
    style: Style,
) -> CheckOutcome {
    match first_mismatch(answer, output, same) {
        None => CheckOutcome::accepted(),
        Some(m) => m.into_outcome(CheckVerdict::WrongAnswer, answer, output, style),
    }
}

/// Walks both token streams in lockstep and describes the first difference,
/// naming the output's line and token position (what the student sees).
pub(crate) fn first_mismatch(
    answer: &[u8],
    output: &[u8],
    same: impl Fn(&[u8], &[u8]) -> TokenMatch,
) -> Option<Mismatch> {
    let mut expected = Tokens::new(answer);
    let mut got = Tokens::new(output);
    let mut seen = 0usize;
    loop {
        match (expected.next(), got.next()) {
            (None, None) => return None,
            (Some(e), Some(g)) => {
                if let TokenMatch::Differ(note) = same(e.bytes, g.bytes) {
                    let mut message = format!(
                        "line {}, token {}: expected {}, got {}",
                        g.at.line,
                        g.index,
                        quote(e.bytes),
                        quote(g.bytes)
                    );
                    if let Some(note) = note {
                        message.push_str(&format!(" ({note})"));
                    }
                    return Some(Mismatch {
                        message,
                        answer_at: e.at,
                        output_at: g.at,
                    });
                }
                seen += 1;
            }
            (Some(e), None) => {
                let whence = if seen == 0 {
                    "the output is empty".to_string()
                } else {
                    format!("answer line {}, token {}", e.at.line, e.index)
                };
                return Some(Mismatch {
                    message: format!("expected {}, got end of output ({whence})", quote(e.bytes)),
                    answer_at: e.at,
                    output_at: got.here(),
                });
            }
            (None, Some(g)) => {
                return Some(Mismatch {
                    message: format!(
                        "line {}, token {}: extra output after the expected answer: {}",
                        g.at.line,
                        g.index,
                        quote(g.bytes)
                    ),
                    answer_at: expected.here(),
                    output_at: g.at,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Diff;

    fn check(answer: &str, output: &str) -> CheckOutcome {
        check_tokens(
            answer.as_bytes(),
            output.as_bytes(),
            same_bytes,
            Style::Tokens,
        )
    }

    fn assert_wa(outcome: &CheckOutcome, message: &str) {
        assert_eq!(outcome.verdict, CheckVerdict::WrongAnswer, "{outcome:?}");
        assert_eq!(outcome.message, message);
    }

    #[test]
    fn identical_output_is_accepted() {
        let got = check("Alice\nBob\n", "Alice\nBob\n");
        assert_eq!(got, CheckOutcome::accepted());
    }

    #[test]
    fn layout_is_ignored() {
        for output in [
            "Alice\r\nBob\r\n",
            "Alice\nBob",
            "  Alice   Bob  ",
            "\n\nAlice\n\n\nBob\n\n\n",
            "Alice\tBob\x0c",
        ] {
            let got = check("Alice\nBob\n", output);
            assert_eq!(got.verdict, CheckVerdict::Accepted, "{output:?}");
        }
    }

    #[test]
    fn comparison_is_case_sensitive() {
        assert_wa(
            &check("Alice\n", "alice\n"),
            "line 1, token 1: expected \"Alice\", got \"alice\"",
        );
    }

    #[test]
    fn first_difference_names_output_line_and_token() {
        let got = check("Bob\nBob\nAlice\n", "Bob\nBob\nBob\n");
        assert_wa(&got, "line 3, token 1: expected \"Alice\", got \"Bob\"");
        let got = check("1 2 3\n4 5 6\n", "1 2 3\n4 9 6\n");
        assert_wa(&got, "line 2, token 2: expected \"5\", got \"9\"");
    }

    #[test]
    fn positions_follow_the_output_layout() {
        let got = check("1 2 3 4\n", "1 2\n\n3 5\n");
        assert_wa(&got, "line 3, token 2: expected \"4\", got \"5\"");
    }

    #[test]
    fn short_output_is_reported() {
        let got = check("Alice\nBob\n", "Alice\n");
        assert_wa(
            &got,
            "expected \"Bob\", got end of output (answer line 2, token 1)",
        );
        let got = check("Alice\n", "  \n");
        assert_wa(
            &got,
            "expected \"Alice\", got end of output (the output is empty)",
        );
    }

    #[test]
    fn extra_output_is_reported() {
        let got = check("Alice\n", "Alice\n\nxyz\n");
        assert_wa(
            &got,
            "line 3, token 1: extra output after the expected answer: \"xyz\"",
        );
    }

    #[test]
    fn wrong_answer_carries_a_diff_window() {
        let got = check("a\nb\nc\n", "a\nx\nc\n");
        assert_eq!(
            got.diff.as_ref().map(Diff::text),
            Some("@@ -1,3 +1,3 @@ (- expected, + output)\n a\n-b\n+x\n c\n")
        );
        let got = check("a\nb\n", "a\n");
        assert_eq!(
            got.diff.as_ref().map(Diff::text),
            Some("@@ -1,2 +1,1 @@ (- expected, + output)\n a\n-b\n")
        );
    }

    #[test]
    fn invalid_utf8_is_quoted_lossily() {
        let got = check_tokens(b"ok\n", b"o\xffk\n", same_bytes, Style::Tokens);
        assert_wa(&got, "line 1, token 1: expected \"ok\", got \"o\u{fffd}k\"");
    }

    #[test]
    fn large_outputs_are_compared_to_a_short_diff() {
        let lines = 100_000;
        let answer: String = (0..lines).map(|i| format!("{i} {}\n", i * 7)).collect();
        let mut output = answer.replace('\n', "\r\n");
        assert_eq!(check(&answer, &output).verdict, CheckVerdict::Accepted);
        output.push_str("99\r\n");
        let got = check(&answer, &output);
        assert_wa(
            &got,
            "line 100001, token 1: extra output after the expected answer: \"99\"",
        );
        let diff = got.diff.map(|d| d.text().to_string()).unwrap_or_default();
        assert!(diff.lines().count() <= 12, "{diff}");
        let bad = answer.replacen("77777 544439", "77777 544440", 1);
        let got = check(&answer, &bad);
        assert_wa(
            &got,
            "line 77778, token 2: expected \"544439\", got \"544440\"",
        );
    }
}
