//! Tokens where numbers may differ within a tolerance.
//!
//! Rule per token pair: when the answer's token is a finite number, the
//! output's token must be a finite number `x` with `|x - y| <= abs` or
//! `|x - y| <= rel * |y|` (`y` the answer). A relative slack of 1e-9 on the
//! bound absorbs the rounding of decimal text itself, so `1.000001` is within
//! `abs = 1e-6` of `1`. Tokens the answer does not give as finite numbers
//! (words, `inf`) must match exactly, and `nan`/`inf` in the output never
//! stands for a finite expected number.

use super::diff::Style;
use super::tokens::{TokenMatch, check_tokens};
use super::{CheckCase, CheckOutcome, Checker};

/// Slack on the tolerance bound, relative to the bound, for decimal rounding.
const BOUND_SLACK: f64 = 1e-9;

/// Token comparison with numeric tolerance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatChecker {
    abs: f64,
    rel: f64,
}

impl FloatChecker {
    /// `None` when a tolerance is negative or not a number, which no spec
    /// should accept silently.
    pub fn new(abs: f64, rel: f64) -> Option<FloatChecker> {
        let valid = |t: f64| t >= 0.0;
        (valid(abs) && valid(rel)).then_some(FloatChecker { abs, rel })
    }

    fn compare(&self, expected: &[u8], got: &[u8]) -> TokenMatch {
        if expected == got {
            return TokenMatch::Equal;
        }
        let Some(y) = parse_finite(expected) else {
            return TokenMatch::Differ(None);
        };
        let Some(x) = parse_number(got) else {
            return TokenMatch::Differ(None);
        };
        if !x.is_finite() {
            return TokenMatch::Differ(Some("not a finite number".to_string()));
        }
        let error = (x - y).abs();
        let bound = self.abs.max(self.rel * y.abs());
        if error <= bound * (1.0 + BOUND_SLACK) {
            TokenMatch::Equal
        } else {
            TokenMatch::Differ(Some(format!(
                "differs by {error:e}, more than abs {:e} and rel {:e} allow",
                self.abs, self.rel
            )))
        }
    }
}

impl Checker for FloatChecker {
    fn reads_input(&self) -> bool {
        false
    }

    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome {
        check_tokens(
            case.answer,
            case.output,
            |e, g| self.compare(e, g),
            Style::Tokens,
        )
    }
}

fn parse_number(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse::<f64>().ok()
}

fn parse_finite(token: &[u8]) -> Option<f64> {
    parse_number(token).filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckVerdict;

    fn check(abs: f64, rel: f64, answer: &str, output: &str) -> CheckOutcome {
        let checker = FloatChecker::new(abs, rel).unwrap_or(FloatChecker { abs: 0.0, rel: 0.0 });
        check_tokens(
            answer.as_bytes(),
            output.as_bytes(),
            |e, g| checker.compare(e, g),
            Style::Tokens,
        )
    }

    fn verdict(abs: f64, rel: f64, answer: &str, output: &str) -> CheckVerdict {
        check(abs, rel, answer, output).verdict
    }

    #[test]
    fn absolute_tolerance() {
        assert_eq!(
            verdict(1e-6, 0.0, "1.0\n", "1.0000009\n"),
            CheckVerdict::Accepted
        );
        assert_eq!(
            verdict(1e-6, 0.0, "1\n", "1.000001\n"),
            CheckVerdict::Accepted
        );
        assert_eq!(
            verdict(1e-6, 0.0, "1\n", "0.999999\n"),
            CheckVerdict::Accepted
        );
        assert_eq!(
            verdict(1e-6, 0.0, "1.0\n", "1.0000011\n"),
            CheckVerdict::WrongAnswer
        );
        assert_eq!(
            verdict(1e-6, 0.0, "0\n", "-0.0000005\n"),
            CheckVerdict::Accepted
        );
    }

    #[test]
    fn relative_tolerance() {
        assert_eq!(
            verdict(0.0, 1e-6, "1e9\n", "1000000900\n"),
            CheckVerdict::Accepted
        );
        assert_eq!(
            verdict(0.0, 1e-6, "1e9\n", "1000001100\n"),
            CheckVerdict::WrongAnswer
        );
        assert_eq!(
            verdict(0.0, 1e-6, "0\n", "1e-300\n"),
            CheckVerdict::WrongAnswer
        );
    }

    #[test]
    fn either_tolerance_suffices() {
        assert_eq!(
            verdict(1e-3, 1e-9, "5\n", "5.0009\n"),
            CheckVerdict::Accepted
        );
        assert_eq!(
            verdict(1e-9, 1e-3, "5000\n", "5004\n"),
            CheckVerdict::Accepted
        );
        assert_eq!(
            verdict(1e-9, 1e-3, "5000\n", "5006\n"),
            CheckVerdict::WrongAnswer
        );
    }

    #[test]
    fn rejection_message_names_the_error() {
        let got = check(1e-6, 1e-6, "0.5\n", "0.75\n");
        assert_eq!(
            got.message,
            "line 1, token 1: expected \"0.5\", got \"0.75\" \
             (differs by 2.5e-1, more than abs 1e-6 and rel 1e-6 allow)"
        );
    }

    #[test]
    fn non_finite_output_is_wrong() {
        for bad in ["nan", "NaN", "inf", "-inf", "infinity"] {
            let got = check(1.0, 1.0, "1.5\n", bad);
            assert_eq!(got.verdict, CheckVerdict::WrongAnswer, "{bad}");
            assert!(
                got.message.ends_with("(not a finite number)"),
                "{}",
                got.message
            );
        }
    }

    #[test]
    fn words_are_compared_exactly() {
        assert_eq!(
            verdict(1.0, 1.0, "yes 1.5\n", "yes 1.7\n"),
            CheckVerdict::Accepted
        );
        assert_eq!(
            verdict(1.0, 1.0, "yes 1.5\n", "Yes 1.5\n"),
            CheckVerdict::WrongAnswer
        );
        assert_eq!(
            verdict(1.0, 1.0, "1.5\n", "abc\n"),
            CheckVerdict::WrongAnswer
        );
        assert_eq!(verdict(1.0, 1.0, "inf\n", "inf\n"), CheckVerdict::Accepted);
        assert_eq!(
            verdict(1.0, 1.0, "inf\n", "1e308\n"),
            CheckVerdict::WrongAnswer
        );
    }

    #[test]
    fn counts_still_matter() {
        let got = check(1e-6, 0.0, "1 2\n", "1\n");
        assert_eq!(
            got.message,
            "expected \"2\", got end of output (answer line 1, token 2)"
        );
        assert_eq!(
            verdict(1e-6, 0.0, "1\n", "1 2\n"),
            CheckVerdict::WrongAnswer
        );
    }

    #[test]
    fn invalid_tolerances_are_refused() {
        assert!(FloatChecker::new(-1.0, 0.0).is_none());
        assert!(FloatChecker::new(0.0, f64::NAN).is_none());
        assert!(FloatChecker::new(0.0, 0.0).is_some());
    }
}
