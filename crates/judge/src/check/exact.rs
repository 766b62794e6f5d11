//! The strict checker: the output must match the answer line by line.
//!
//! Tolerated, because they depend on the platform rather than the program:
//! CRLF versus LF line endings, and a missing newline after the last line.
//! Everything else about layout is checked: spaces inside a line (doubled,
//! leading, trailing, tabs), blank lines (including an extra empty line at the
//! end, i.e. a doubled final newline) and where lines break. When only such
//! layout differs the verdict is `PE`, with a message naming the first line
//! and what is wrong with it; when the tokens themselves differ it is `WA`,
//! reported exactly like the tokens checker.

use super::diff::Style;
use super::scan::{Focus, Line, Lines, Tokens, is_space, quote};
use super::tokens::{first_mismatch, same_bytes};
use super::{CheckCase, CheckOutcome, CheckVerdict, Checker};

/// Line-by-line comparison where layout differences are `PE`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExactChecker;

impl Checker for ExactChecker {
    fn reads_input(&self) -> bool {
        false
    }

    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome {
        check_exact(case.answer, case.output)
    }
}

fn check_exact(answer: &[u8], output: &[u8]) -> CheckOutcome {
    let Some(difference) = first_line_difference(answer, output) else {
        return CheckOutcome::accepted();
    };
    if let Some(m) = first_mismatch(answer, output, same_bytes) {
        return m.into_outcome(CheckVerdict::WrongAnswer, answer, output, Style::Visible);
    }
    let message = describe(&difference);
    let diff = super::diff::window(
        answer,
        difference.focus(difference.expected, answer.len()),
        output,
        difference.focus(difference.got, output.len()),
        Style::Visible,
    );
    CheckOutcome {
        verdict: CheckVerdict::PresentationError,
        message,
        diff,
    }
}

/// The first line number at which the two texts differ, with both lines
/// (either may be missing when one text is shorter).
struct LineDifference<'a> {
    number: usize,
    expected: Option<Line<'a>>,
    got: Option<Line<'a>>,
}

impl LineDifference<'_> {
    /// Where the difference sits on one side (`line` from a text of `len`
    /// bytes), pointing at the first byte where the two lines disagree.
    fn focus(&self, line: Option<Line<'_>>, len: usize) -> Focus {
        let e = self.expected.map_or(&[][..], |l| l.bytes);
        let g = self.got.map_or(&[][..], |l| l.bytes);
        let col = e.iter().zip(g).take_while(|(a, b)| a == b).count();
        Focus {
            line: self.number,
            line_start: line.map_or(len, |l| l.start),
            col,
        }
    }
}

fn first_line_difference<'a>(answer: &'a [u8], output: &'a [u8]) -> Option<LineDifference<'a>> {
    let mut expected = Lines::new(answer);
    let mut got = Lines::new(output);
    let mut number = 0;
    loop {
        number += 1;
        let (e, g) = (expected.next(), got.next());
        let same = match (e, g) {
            (None, None) => return None,
            (Some(e), Some(g)) => e.bytes == g.bytes,
            _ => false,
        };
        if !same {
            return Some(LineDifference {
                number,
                expected: e,
                got: g,
            });
        }
    }
}

/// Says what is wrong with the layout of the first differing line. Only
/// called when the token streams are equal, so the lines hold the same
/// tokens whenever they hold the same number of them.
fn describe(d: &LineDifference<'_>) -> String {
    let n = d.number;
    let (e, g) = match (d.expected, d.got) {
        (Some(e), Some(g)) => (e.bytes, g.bytes),
        (Some(_), None) => return format!("line {n}: missing blank line at the end of the output"),
        (None, _) => return format!("line {n}: extra blank line at the end of the output"),
    };
    match (is_blank(e), is_blank(g)) {
        (true, true) => return format!("line {n}: whitespace on a blank line differs"),
        (true, false) => return format!("line {n}: expected a blank line, got {}", quote(g)),
        (false, true) => return format!("line {n}: unexpected blank line (expected {})", quote(e)),
        (false, false) => {}
    }
    let (ce, cg) = (Tokens::new(e).count(), Tokens::new(g).count());
    if ce != cg {
        return format!(
            "line {n}: line breaks differ: expected {ce} tokens on this line, got {cg}"
        );
    }
    if let Some(what) = edge_difference(leading(e), leading(g), "leading") {
        return format!("line {n}: {what}");
    }
    if let Some(what) = edge_difference(trailing(e), trailing(g), "trailing") {
        return format!("line {n}: {what}");
    }
    format!(
        "line {n}: spacing between tokens differs (expected {}, got {})",
        quote(e),
        quote(g)
    )
}

fn edge_difference(expected: &[u8], got: &[u8], edge: &str) -> Option<String> {
    if expected == got {
        None
    } else if expected.is_empty() {
        Some(format!("{edge} whitespace"))
    } else if got.is_empty() {
        Some(format!("missing {edge} whitespace"))
    } else {
        Some(format!("{edge} whitespace differs"))
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| is_space(b))
}

fn leading(line: &[u8]) -> &[u8] {
    let n = line.iter().take_while(|&&b| is_space(b)).count();
    &line[..n]
}

fn trailing(line: &[u8]) -> &[u8] {
    let n = line.iter().rev().take_while(|&&b| is_space(b)).count();
    &line[line.len() - n..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Diff;

    fn check(answer: &str, output: &str) -> CheckOutcome {
        check_exact(answer.as_bytes(), output.as_bytes())
    }

    fn assert_verdict(outcome: &CheckOutcome, verdict: CheckVerdict, message: &str) {
        assert_eq!(outcome.verdict, verdict, "{outcome:?}");
        assert_eq!(outcome.message, message);
    }

    fn assert_pe(answer: &str, output: &str, message: &str) {
        let got = check(answer, output);
        assert_verdict(&got, CheckVerdict::PresentationError, message);
        assert!(got.diff.is_some(), "{got:?}");
    }

    #[test]
    fn tolerates_crlf_and_missing_final_newline() {
        for output in ["1 2\n3\n", "1 2\r\n3\r\n", "1 2\n3", "1 2\r\n3"] {
            let got = check("1 2\n3\n", output);
            assert_eq!(got, CheckOutcome::accepted(), "{output:?}");
        }
        assert_eq!(check("1 2\r\n3", "1 2\n3\n"), CheckOutcome::accepted());
        assert_eq!(check("", ""), CheckOutcome::accepted());
    }

    #[test]
    fn trailing_and_leading_whitespace_are_pe() {
        assert_pe("a\nb c\n", "a\nb c \n", "line 2: trailing whitespace");
        assert_pe("a\nb c\n", "a\n b c\n", "line 2: leading whitespace");
        assert_pe("a \n", "a\n", "line 1: missing trailing whitespace");
        assert_pe("a\n", "a\r\r\n", "line 1: trailing whitespace");
    }

    #[test]
    fn inner_spacing_is_pe() {
        assert_pe(
            "1 2 3\n",
            "1  2 3\n",
            "line 1: spacing between tokens differs (expected \"1 2 3\", got \"1  2 3\")",
        );
        assert_pe(
            "1 2\n",
            "1\t2\n",
            "line 1: spacing between tokens differs (expected \"1 2\", got \"1\\t2\")",
        );
    }

    #[test]
    fn blank_lines_and_line_breaks_are_pe() {
        assert_pe(
            "a\nb\n",
            "a\n\nb\n",
            "line 2: unexpected blank line (expected \"b\")",
        );
        assert_pe(
            "a\n\nb\n",
            "a\nb\n",
            "line 2: expected a blank line, got \"b\"",
        );
        assert_pe(
            "a\n",
            "a\n\n",
            "line 2: extra blank line at the end of the output",
        );
        assert_pe(
            "a\n\n",
            "a\n",
            "line 2: missing blank line at the end of the output",
        );
        assert_pe(
            "1 2\n3\n",
            "1\n2 3\n",
            "line 1: line breaks differ: expected 2 tokens on this line, got 1",
        );
        assert_pe(
            "a\n\nb\n",
            "a\n  \nb\n",
            "line 2: whitespace on a blank line differs",
        );
    }

    #[test]
    fn pe_diff_makes_whitespace_visible() {
        let got = check("a\nb c\n", "a\nb c \n");
        assert_eq!(
            got.diff.as_ref().map(Diff::text),
            Some("@@ -1,2 +1,2 @@ (- expected, + output)\n a\n-b c\n+b c·\n")
        );
    }

    #[test]
    fn different_tokens_are_wa_like_tokens_checker() {
        let got = check("Alice\nBob\n", "Alice \nAlice\n");
        assert_verdict(
            &got,
            CheckVerdict::WrongAnswer,
            "line 2, token 1: expected \"Bob\", got \"Alice\"",
        );
        assert!(got.diff.is_some());
        let got = check("Alice\nBob\n", "Alice\n");
        assert_verdict(
            &got,
            CheckVerdict::WrongAnswer,
            "expected \"Bob\", got end of output (answer line 2, token 1)",
        );
        let got = check("Alice\n", "Alice\nBob");
        assert_verdict(
            &got,
            CheckVerdict::WrongAnswer,
            "line 2, token 1: extra output after the expected answer: \"Bob\"",
        );
    }

    #[test]
    fn large_output_with_layout_error_near_the_end() {
        let answer: String = (0..100_000).map(|i| format!("{i}\n")).collect();
        let output = answer.replacen("99998\n", "99998 \n", 1);
        let got = check(&answer, &output);
        assert_verdict(
            &got,
            CheckVerdict::PresentationError,
            "line 99999: trailing whitespace",
        );
        let diff = got.diff.map(|d| d.text().to_string()).unwrap_or_default();
        assert!(diff.contains("+99998·"), "{diff}");
        assert!(diff.lines().count() <= 12);
    }
}
