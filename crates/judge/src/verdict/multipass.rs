//! The verdict of a multi-pass test, pass by pass ("Multi-pass validation"
//! of the ICPC format's 2023-07 and 2025-09 specifications):
//!
//! - judging stops at the first pass that is not accepted: its verdict is
//!   the test's;
//! - an accepting validator that writes no next pass's input ends the test:
//!   `AC` (how many passes a test has is the validator's choice);
//! - a validator that asks for another pass and does not accept, or asks
//!   for one on the last pass `limits.validation_passes` allows, is a judge
//!   error (`IE`): the package is wrong, not the submission.

use super::Verdict;

/// The file a validator writes to ask for another pass.
pub const NEXT_PASS: &str = "nextpass.in";

/// What follows a pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterPass {
    /// Run the next pass on the input the validator wrote.
    Next,
    /// The test's verdict and message.
    Done(Verdict, String),
}

/// What follows pass `pass` of at most `passes`, judged `verdict` with
/// `message`, the validator having asked for another pass or not
/// (`asked`).
pub fn after_pass(
    pass: u32,
    passes: u32,
    verdict: Verdict,
    message: &str,
    asked: bool,
) -> AfterPass {
    let said = if message.is_empty() {
        String::new()
    } else {
        format!(": {message}")
    };
    match (verdict, asked) {
        (Verdict::AC, false) => AfterPass::Done(Verdict::AC, message.to_string()),
        (Verdict::AC, true) if pass == passes => AfterPass::Done(
            Verdict::IE,
            format!(
                "pass {pass}: the output validator wrote {NEXT_PASS}, asking for pass {} of at most {passes} (limits.validation_passes)",
                pass + 1
            ),
        ),
        (Verdict::AC, true) => AfterPass::Next,
        (Verdict::WA | Verdict::PE, true) => AfterPass::Done(
            Verdict::IE,
            format!(
                "pass {pass}: the output validator rejected the output and wrote {NEXT_PASS} (only an accepting validator may ask for another pass){said}"
            ),
        ),
        (verdict, _) => AfterPass::Done(verdict, format!("pass {pass}{said}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    /// Every verdict of a pass, asking for another or not, on a middle
    /// pass and on the last one.
    #[test]
    fn the_pass_table() {
        for (pass, last) in [(1, false), (3, true)] {
            for verdict in [AC, WA, PE, TLE, MLE, OLE, RE, IE] {
                for asked in [false, true] {
                    let got = after_pass(pass, 3, verdict, "why", asked);
                    let want = match (verdict, asked) {
                        (AC, false) => AfterPass::Done(AC, "why".into()),
                        (AC, true) if last => AfterPass::Done(
                            IE,
                            "pass 3: the output validator wrote nextpass.in, asking for pass 4 of at most 3 (limits.validation_passes)".into(),
                        ),
                        (AC, true) => AfterPass::Next,
                        (WA | PE, true) => AfterPass::Done(
                            IE,
                            format!("pass {pass}: the output validator rejected the output and wrote nextpass.in (only an accepting validator may ask for another pass): why"),
                        ),
                        (v, _) => AfterPass::Done(v, format!("pass {pass}: why")),
                    };
                    assert_eq!(got, want, "pass {pass} {verdict:?} asked {asked}");
                }
            }
        }
        assert_eq!(
            after_pass(2, 3, TLE, "", false),
            AfterPass::Done(TLE, "pass 2".into())
        );
    }
}
