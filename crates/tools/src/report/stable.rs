//! Messages without measured figures.
//!
//! The grade reports that people compare (the gradebook, JUnit, HTML,
//! feedback) must come out byte for byte the same when the same class is
//! graded twice, or resumed after an interrupt. Verdicts and checker
//! messages are reproducible; CPU seconds and peak memory are not. Those
//! figures stay in `report.json`; these reports quote a limit message with
//! the measured part taken out.
//!
//! A result judged in this run carries the structured reason its message
//! was written from, and the reason knows its own figures. A result read
//! back from a journal (`grade --resume`, `merge`) has only the text: its
//! message is read with [`scrub`], which knows the few limit messages that
//! quote a measurement.

use crate::judge::TestResult;
use crate::verdict::Verdict;

/// The test's message, minus the figures measured during the run.
pub fn message(t: &TestResult) -> String {
    match (&t.reason, t.verdict) {
        // The message quotes the reason, after a multi-pass test's
        // `pass N: ` when there is one.
        (Some(r), _) => t
            .message
            .replacen(&r.to_string(), &r.without_measurements(), 1),
        (None, Verdict::TLE | Verdict::MLE) => scrub(&t.message),
        (None, _) => t.message.clone(),
    }
}

/// The message of a result read back from a journal, without the figures
/// the judge's limit messages quote.
fn scrub(msg: &str) -> String {
    let mut s = msg.to_string();
    // "wall time over 2.20 s (CPU 0.01 s): …"
    if let Some(i) = s.find(" (CPU ")
        && let Some(j) = s[i..].find(')')
    {
        s.replace_range(i..i + j + 1, "");
    }
    // "peak memory 300.2 MiB over the limit of 272.0 MiB"
    if let Some(i) = s.find("peak memory ") {
        let from = i + "peak memory ".len();
        if let Some(j) = s[from..].find(" over") {
            s.replace_range(from..from + j + 1, "");
        }
    }
    // "… failed to get more memory (peak 270.1 MiB, limit 272.0 MiB)"
    if let Some(i) = s.find("(peak ")
        && let Some(j) = s[i..].find(", ")
    {
        s.replace_range(i + 1..i + j + 2, "");
    }
    s
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::verdict::decide::{Decision, Reason};
    use grundy_units::units::Bytes;

    /// A result judged now (its reason kept) and the same result read back
    /// from a journal (text only) are quoted alike, with a multi-pass
    /// test's `pass N: ` kept in front.
    #[test]
    fn a_kept_reason_and_a_journal_record_give_the_same_message() {
        let reasons = [
            (
                Verdict::TLE,
                Reason::Wall {
                    limit: Duration::from_millis(600),
                    cpu: Duration::from_millis(12),
                },
            ),
            (
                Verdict::MLE,
                Reason::MemoryPeak {
                    peak: Bytes(300 << 20),
                    limit: Bytes(272 << 20),
                    allowance: Bytes(16 << 20),
                },
            ),
            (
                Verdict::MLE,
                Reason::OutOfMemory {
                    peak: Bytes(250 << 20),
                    limit: Bytes(272 << 20),
                    allowance: Bytes(16 << 20),
                },
            ),
            (
                Verdict::TLE,
                Reason::Cpu {
                    limit: Duration::from_secs(1),
                },
            ),
        ];
        for (verdict, reason) in reasons {
            let mut judged = TestResult::unjudged("t1", "g");
            judged.decided_by_run(Decision {
                verdict,
                reason: reason.clone(),
            });
            assert_eq!(message(&judged), reason.without_measurements());
            let json = serde_json::to_string(&judged).expect("serialises");
            let read_back: TestResult = serde_json::from_str(&json).expect("reads back");
            assert_eq!(read_back.reason, None, "{json}");
            assert_eq!(message(&read_back), message(&judged));

            let mut pass = judged.clone();
            pass.message = format!("pass 2: {}", judged.message);
            assert_eq!(
                message(&pass),
                format!("pass 2: {}", reason.without_measurements())
            );
            pass.reason = None;
            assert_eq!(
                message(&pass),
                format!("pass 2: {}", reason.without_measurements())
            );
        }
    }

    #[test]
    fn figures_are_taken_out() {
        assert_eq!(
            scrub("wall time over 2.20 s (CPU 0.01 s): the program was waiting or sleeping"),
            "wall time over 2.20 s: the program was waiting or sleeping"
        );
        assert_eq!(
            scrub("peak memory 300.2 MiB over the limit of 272.0 MiB"),
            "peak memory over the limit of 272.0 MiB"
        );
        assert_eq!(
            scrub("the program failed to get more memory (peak 270.1 MiB, limit 272.0 MiB)"),
            "the program failed to get more memory (limit 272.0 MiB)"
        );
        assert_eq!(
            scrub("CPU time over the limit of 1.00 s"),
            "CPU time over the limit of 1.00 s"
        );
    }
}
