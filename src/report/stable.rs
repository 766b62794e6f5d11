//! Messages without measured figures.
//!
//! The grade reports that people compare (the gradebook, JUnit, HTML,
//! feedback) must come out byte for byte the same when the same class is
//! graded twice, or resumed after an interrupt. Verdicts and checker
//! messages are reproducible; CPU seconds and peak memory are not. Those
//! figures stay in `report.json`; these reports quote a limit message with
//! the measured part taken out.

use crate::judge::TestResult;
use crate::verdict::Verdict;

/// The test's message, minus the figures measured during the run.
pub fn message(t: &TestResult) -> String {
    match t.verdict {
        Verdict::TLE | Verdict::MLE => scrub(&t.message),
        _ => t.message.clone(),
    }
}

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
    use super::*;

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
