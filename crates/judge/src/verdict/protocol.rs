//! What a judging program's exit status means: one table for checkers
//! (output validators) and interactors alike, since a package's programs
//! speak one of two conventions whichever role they play.
//!
//! - ICPC (the problem package format's output validators and
//!   interactors): 42 accepts, 43 rejects, anything else is the program's
//!   failure.
//! - testlib: 0 ok, 1 wrong answer, 2 presentation error, 3 `fail` (the
//!   program's own failure), anything else a failure too.
//!
//! How a program is called (its arguments) is the caller's; what it said
//! is decided here.

use super::Verdict;
use crate::sandbox::Exit;

/// The exit-status convention a checker or interactor program follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// 42 accepts, 43 rejects (wrong answer).
    Icpc,
    /// 0 ok, 1 wrong answer, 2 presentation error, 3 `fail`.
    Testlib,
}

/// What a program's exit status says of the submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    Accepted,
    /// Rejected, as `WA` or (testlib) `PE`.
    Rejected(Verdict),
    /// The program itself failed: the test is `IE` whatever the
    /// submission did.
    Failed(Failure),
}

/// How a judging program failed, for its caller to word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// testlib's `fail` (exit status 3).
    Fail,
    /// An exit status the protocol gives no meaning.
    Code(i32),
    /// Killed by a signal.
    Signal(i32),
}

impl Protocol {
    /// What `exit` says in this protocol.
    pub fn said(self, exit: Exit) -> Said {
        match (self, exit) {
            (Protocol::Icpc, Exit::Code(42)) | (Protocol::Testlib, Exit::Code(0)) => Said::Accepted,
            (Protocol::Icpc, Exit::Code(43)) | (Protocol::Testlib, Exit::Code(1)) => {
                Said::Rejected(Verdict::WA)
            }
            (Protocol::Testlib, Exit::Code(2)) => Said::Rejected(Verdict::PE),
            (Protocol::Testlib, Exit::Code(3)) => Said::Failed(Failure::Fail),
            (_, Exit::Code(c)) => Said::Failed(Failure::Code(c)),
            (_, Exit::Signal(s)) => Said::Failed(Failure::Signal(s)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every exit status either protocol gives a meaning, and its
    /// neighbours, plus a signal.
    #[test]
    fn the_exit_status_table() {
        use Protocol::{Icpc, Testlib};
        use Verdict::{PE, WA};
        let rows = [
            (Icpc, Exit::Code(42), Said::Accepted),
            (Icpc, Exit::Code(43), Said::Rejected(WA)),
            (Icpc, Exit::Code(0), Said::Failed(Failure::Code(0))),
            (Icpc, Exit::Code(1), Said::Failed(Failure::Code(1))),
            (Icpc, Exit::Code(3), Said::Failed(Failure::Code(3))),
            (Icpc, Exit::Code(44), Said::Failed(Failure::Code(44))),
            (Icpc, Exit::Signal(9), Said::Failed(Failure::Signal(9))),
            (Testlib, Exit::Code(0), Said::Accepted),
            (Testlib, Exit::Code(1), Said::Rejected(WA)),
            (Testlib, Exit::Code(2), Said::Rejected(PE)),
            (Testlib, Exit::Code(3), Said::Failed(Failure::Fail)),
            (Testlib, Exit::Code(4), Said::Failed(Failure::Code(4))),
            (Testlib, Exit::Code(42), Said::Failed(Failure::Code(42))),
            (Testlib, Exit::Signal(11), Said::Failed(Failure::Signal(11))),
        ];
        for (protocol, exit, want) in rows {
            assert_eq!(protocol.said(exit), want, "{protocol:?} {exit:?}");
        }
    }
}
