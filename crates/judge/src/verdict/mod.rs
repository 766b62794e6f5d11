//! Verdicts and their precedence, in one place: a run's and a checker's
//! (`decide`, its messages in `reason`), what a checker's or interactor's
//! exit status says (`protocol`), an interactive test's (`interactive`), a
//! multi-pass test's (`multipass`), and a submission's score (`scoring`).

pub mod decide;
pub mod interactive;
pub mod multipass;
pub mod protocol;
mod reason;
pub mod scoring;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The verdict of one test or one submission (docs/reference.md, "Verdicts").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Verdict {
    AC,
    WA,
    PE,
    TLE,
    MLE,
    OLE,
    RE,
    CE,
    IE,
}

impl Verdict {
    pub const ALL: [Verdict; 9] = [
        Verdict::AC,
        Verdict::WA,
        Verdict::PE,
        Verdict::TLE,
        Verdict::MLE,
        Verdict::OLE,
        Verdict::RE,
        Verdict::CE,
        Verdict::IE,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::WA => "WA",
            Verdict::PE => "PE",
            Verdict::TLE => "TLE",
            Verdict::MLE => "MLE",
            Verdict::OLE => "OLE",
            Verdict::RE => "RE",
            Verdict::CE => "CE",
            Verdict::IE => "IE",
        }
    }

    pub fn meaning(self) -> &'static str {
        match self {
            Verdict::AC => "accepted",
            Verdict::WA => "wrong answer",
            Verdict::PE => "presentation error",
            Verdict::TLE => "time limit exceeded",
            Verdict::MLE => "memory limit exceeded",
            Verdict::OLE => "output limit exceeded",
            Verdict::RE => "run-time error",
            Verdict::CE => "compile error",
            Verdict::IE => "internal error",
        }
    }

    /// The ICPC problem-package folder holding submissions expected to get
    /// this verdict.
    pub fn folder(self) -> &'static str {
        match self {
            Verdict::AC => "accepted",
            Verdict::WA => "wrong_answer",
            Verdict::PE => "presentation_error",
            Verdict::TLE => "time_limit_exceeded",
            Verdict::MLE => "memory_limit_exceeded",
            Verdict::OLE => "output_limit_exceeded",
            Verdict::RE => "run_time_error",
            Verdict::CE => "compile_error",
            Verdict::IE => "judge_error",
        }
    }

    pub fn from_folder(name: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.folder() == name)
    }

    /// The overall verdict of a run of tests: the first one that is not AC,
    /// in test order (samples first), or AC.
    pub fn first_failure(tests: impl IntoIterator<Item = Verdict>) -> Verdict {
        tests
            .into_iter()
            .find(|v| *v != Verdict::AC)
            .unwrap_or(Verdict::AC)
    }
}

/// How a whole run went, as the exit codes of docs/reference.md
/// distinguish it; the CLI
/// turns it into the code (`cli/exit.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overall {
    /// Everything judged was AC.
    Accepted,
    /// Something was not AC, or was not judged.
    Rejected,
    /// The judge failed somewhere (an IE).
    JudgeFailed,
}

impl Overall {
    /// The judge failing anywhere wins; then anything not AC or not judged.
    pub fn of(verdicts: impl IntoIterator<Item = Verdict>, not_judged: bool) -> Overall {
        let mut overall = if not_judged {
            Overall::Rejected
        } else {
            Overall::Accepted
        };
        for v in verdicts {
            match v {
                Verdict::AC => {}
                Verdict::IE => return Overall::JudgeFailed,
                _ => overall = Overall::Rejected,
            }
        }
        overall
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A verdict code that is none of ours (the text as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown verdict `{0}` (expected one of AC WA PE TLE MLE OLE RE CE IE)")]
pub struct UnknownVerdict(pub String);

impl FromStr for Verdict {
    type Err = UnknownVerdict;
    fn from_str(s: &str) -> Result<Self, UnknownVerdict> {
        Verdict::ALL
            .into_iter()
            .find(|v| v.code().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownVerdict(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_failure_in_order() {
        use Verdict::*;
        assert_eq!(Verdict::first_failure([AC, AC]), AC);
        assert_eq!(Verdict::first_failure([AC, WA, TLE]), WA);
        assert_eq!(Verdict::first_failure([TLE, WA]), TLE);
    }

    #[test]
    fn overall_prefers_a_judge_failure() {
        use Verdict::*;
        assert_eq!(Overall::of([AC, AC], false), Overall::Accepted);
        assert_eq!(Overall::of([AC, AC], true), Overall::Rejected);
        assert_eq!(Overall::of([WA, IE, AC], false), Overall::JudgeFailed);
        assert_eq!(Overall::of([TLE], false), Overall::Rejected);
        assert_eq!(Overall::of([], false), Overall::Accepted);
    }

    #[test]
    fn folders_round_trip() {
        for v in Verdict::ALL {
            assert_eq!(Verdict::from_folder(v.folder()), Some(v));
            assert_eq!(v.code().parse::<Verdict>(), Ok(v));
        }
    }
}
