//! The default output validator of the ICPC / Kattis problem package format,
//! so that a package judged by grundy gets the verdicts it gets on Kattis or
//! DOMjudge.
//!
//! Its rules, from the format's specification: outputs are compared token by
//! token; tokens compare case-insensitively unless `case_sensitive`; any run
//! of whitespace equals any other unless `space_change_sensitive`, in which
//! case the whitespace between tokens must be the same bytes; with a float
//! tolerance, an answer token that is a number accepts any number within the
//! absolute or the relative tolerance (either suffices), written in any
//! format. There is no presentation error in that format: every mismatch is
//! a wrong answer.

use super::diff::Style;
use super::scan::{Focus, is_space, quote};
use super::tokens::{TokenMatch, check_tokens};
use super::{CheckCase, CheckOutcome, CheckVerdict, Checker};
use crate::problem::IcpcFlags;

/// Slack on a tolerance bound, relative to the bound, for decimal rounding
/// (the same as the float checker's).
const BOUND_SLACK: f64 = 1e-9;

/// The ICPC default output validator with its flags.
#[derive(Debug, Clone, PartialEq)]
pub struct IcpcDefaultChecker {
    flags: IcpcFlags,
}

impl IcpcDefaultChecker {
    /// `None` when a tolerance is negative or not a number.
    pub fn new(flags: IcpcFlags) -> Option<IcpcDefaultChecker> {
        let valid = |t: Option<f64>| t.is_none_or(|t| t >= 0.0);
        (valid(flags.float_abs) && valid(flags.float_rel)).then_some(IcpcDefaultChecker { flags })
    }

    fn compare(&self, expected: &[u8], got: &[u8]) -> TokenMatch {
        let f = &self.flags;
        let tolerant = f.float_abs.is_some() || f.float_rel.is_some();
        if tolerant && let Some(y) = parse_finite(expected) {
            let Some(x) = parse_finite(got) else {
                return TokenMatch::Differ(Some("not a number".into()));
            };
            let error = (x - y).abs();
            let abs = f.float_abs.unwrap_or(-1.0);
            let rel = f.float_rel.map_or(-1.0, |r| r * y.abs());
            let within = |bound: f64| bound >= 0.0 && error <= bound * (1.0 + BOUND_SLACK);
            return if within(abs) || within(rel) {
                TokenMatch::Equal
            } else {
                TokenMatch::Differ(Some(format!(
                    "differs by {error:e}, more than the tolerance allows"
                )))
            };
        }
        let same = if f.case_sensitive {
            expected == got
        } else {
            expected.eq_ignore_ascii_case(got)
        };
        if same {
            TokenMatch::Equal
        } else {
            TokenMatch::Differ(None)
        }
    }
}

impl Checker for IcpcDefaultChecker {
    fn reads_input(&self) -> bool {
        false
    }

    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome {
        let outcome = check_tokens(
            case.answer,
            case.output,
            |e, g| self.compare(e, g),
            Style::Tokens,
        );
        if outcome.verdict != CheckVerdict::Accepted || !self.flags.space_change_sensitive {
            return outcome;
        }
        match first_space_difference(case.answer, case.output) {
            None => outcome,
            Some(at) => CheckOutcome {
                verdict: CheckVerdict::WrongAnswer,
                message: format!(
                    "line {}: the whitespace differs from the answer's ({} expected; the problem is space_change_sensitive)",
                    at.0.line, at.1
                ),
                diff: super::diff::window(case.answer, at.2, case.output, at.0, Style::Visible),
            },
        }
    }
}

/// Where the whitespace runs of two texts with equal tokens first differ:
/// the output's position, what the answer has there, and the answer's position.
fn first_space_difference(answer: &[u8], output: &[u8]) -> Option<(Focus, String, Focus)> {
    let runs_a = space_runs(answer);
    let runs_o = space_runs(output);
    for i in 0..runs_a.len().max(runs_o.len()) {
        let a = runs_a.get(i);
        let o = runs_o.get(i);
        if a.map(|r| r.0) != o.map(|r| r.0) {
            let shown = a.map_or_else(|| "nothing".to_string(), |r| quote(r.0));
            let focus = |r: Option<&(&[u8], Focus)>, text: &[u8]| {
                r.map_or_else(|| end_focus(text), |r| r.1)
            };
            return Some((focus(o, output), shown, focus(a, answer)));
        }
    }
    None
}

/// The whitespace runs of a text (including an empty run before a first
/// token that starts the text), each with where it starts.
fn space_runs(text: &[u8]) -> Vec<(&[u8], Focus)> {
    let mut runs = Vec::new();
    let (mut line, mut line_start, mut i) = (1, 0, 0);
    while i <= text.len() {
        let start = i;
        let at = Focus {
            line,
            line_start,
            col: start - line_start,
        };
        while i < text.len() && is_space(text[i]) {
            if text[i] == b'\n' {
                line += 1;
                line_start = i + 1;
            }
            i += 1;
        }
        runs.push((&text[start..i], at));
        while i < text.len() && !is_space(text[i]) {
            i += 1;
        }
        if i == text.len() {
            break;
        }
    }
    runs
}

fn end_focus(text: &[u8]) -> Focus {
    let line_start = text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    Focus {
        line: text.iter().filter(|&&b| b == b'\n').count() + 1,
        line_start,
        col: text.len() - line_start,
    }
}

fn parse_finite(token: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(token).ok()?;
    // strtod-style numbers only: words such as `inf` or `nan` are not floats here.
    if !s
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'))
    {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn verdict(flags: IcpcFlags, answer: &str, output: &str) -> CheckVerdict {
        let nowhere = Path::new("/nonexistent");
        let case = CheckCase {
            input: b"",
            output: output.as_bytes(),
            answer: answer.as_bytes(),
            input_path: nowhere,
            output_path: nowhere,
            answer_path: nowhere,
            scratch: nowhere,
        };
        match IcpcDefaultChecker::new(flags) {
            Some(c) => c.check(&case).verdict,
            None => CheckVerdict::Failed,
        }
    }

    #[test]
    fn case_insensitive_unless_asked() {
        use CheckVerdict::*;
        assert_eq!(verdict(IcpcFlags::default(), "Alice\n", "ALICE"), Accepted);
        let strict = IcpcFlags {
            case_sensitive: true,
            ..IcpcFlags::default()
        };
        assert_eq!(verdict(strict, "Alice\n", "alice\n"), WrongAnswer);
    }

    #[test]
    fn whitespace_only_matters_when_sensitive() {
        use CheckVerdict::*;
        assert_eq!(
            verdict(IcpcFlags::default(), "1 2\n3\n", "1\n2 3"),
            Accepted
        );
        let strict = IcpcFlags {
            space_change_sensitive: true,
            ..IcpcFlags::default()
        };
        assert_eq!(verdict(strict.clone(), "1 2\n3\n", "1 2\n3\n"), Accepted);
        assert_eq!(
            verdict(strict.clone(), "1 2\n3\n", "1  2\n3\n"),
            WrongAnswer
        );
        assert_eq!(verdict(strict.clone(), "1 2\n3\n", "1 2\n3"), WrongAnswer);
        assert_eq!(verdict(strict, "1 2\n", " 1 2\n"), WrongAnswer);
    }

    #[test]
    fn float_tolerances_either_suffices() {
        use CheckVerdict::*;
        let abs = IcpcFlags {
            float_abs: Some(1e-6),
            ..IcpcFlags::default()
        };
        assert_eq!(verdict(abs.clone(), "0.0314\n", "3.14e-2\n"), Accepted);
        assert_eq!(verdict(abs.clone(), "1\n", "1.0000009\n"), Accepted);
        assert_eq!(verdict(abs.clone(), "1\n", "1.00001\n"), WrongAnswer);
        assert_eq!(verdict(abs.clone(), "1\n", "one\n"), WrongAnswer);
        assert_eq!(verdict(abs, "yes\n", "YES\n"), Accepted);
        let both = IcpcFlags {
            float_abs: Some(1e-9),
            float_rel: Some(1e-3),
            ..IcpcFlags::default()
        };
        assert_eq!(verdict(both.clone(), "5000\n", "5004\n"), Accepted);
        assert_eq!(verdict(both, "5000\n", "5006\n"), WrongAnswer);
        let none = IcpcFlags::default();
        assert_eq!(verdict(none, "1.0\n", "1\n"), WrongAnswer);
    }

    #[test]
    fn negative_tolerance_is_refused() {
        let bad = IcpcFlags {
            float_abs: Some(-1.0),
            ..IcpcFlags::default()
        };
        assert!(IcpcDefaultChecker::new(bad).is_none());
    }
}
