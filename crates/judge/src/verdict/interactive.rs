//! The verdict of an interactive test: a built-in game played against the
//! submission ([`game`]), or an interactor program connected to it
//! ([`interaction`], by the ICPC format's precedence between the two runs,
//! [`precedence`]). The run's own verdict (a limit, a crash) comes from
//! [`super::decide::run_verdict`]; these rules say when it stands.

use std::time::Duration;

use super::Verdict;
use super::decide::{Decision, Reason};
use super::protocol::{Failure, Protocol, Said};
use crate::limit::LimitHit;
use crate::units::Bytes;

/// Why the judge ended a game's run before the submission did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The game was decided (lost, illegal line, output after the end).
    Decided,
    /// The judge waited `idle` for a line (the idleness limit).
    Idle { idle: Duration },
    /// Every game was won and the submission's input closed, and it still
    /// had not exited after `idle` (the idleness limit).
    NotExited { idle: Duration },
    /// The submission wrote more than `output`.
    Flooded { output: Bytes },
}

/// What a built-in game's interactor made of the submission's lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameSaid {
    /// Every game won, nothing after the last.
    Accepted,
    /// A game lost, an illegal line, or output after the last game.
    Wrong(String),
    /// The output ended while the judge waited for a line.
    Unfinished(String),
}

/// The verdict of a game played against the built-in interactor
/// (docs/reference.md): a game decided by the protocol is `WA` whatever the
/// submission did next; an idle submission, or one that won every game
/// and did not exit, is `TLE`, a flooding one `OLE`;
/// otherwise the run's own verdict (`run`, returned as `Err`) comes first,
/// then the interactor's word.
pub fn game(
    stop: Option<Stop>,
    said: &GameSaid,
    run: impl FnOnce() -> Option<Decision>,
) -> Result<(Verdict, String), Decision> {
    match stop {
        Some(Stop::Decided) => {
            if let GameSaid::Wrong(why) = said {
                return Ok((Verdict::WA, why.clone()));
            }
        }
        Some(Stop::Idle { idle }) => {
            return Ok((
                Verdict::TLE,
                format!(
                    "idle: waited {:.0} s for your move (did you flush your output?)",
                    idle.as_secs_f64()
                ),
            ));
        }
        Some(Stop::NotExited { idle }) => {
            return Ok((
                Verdict::TLE,
                format!(
                    "all games were won; the program did not exit (waited {:.0} s after its input was closed)",
                    idle.as_secs_f64()
                ),
            ));
        }
        Some(Stop::Flooded { output }) => {
            return Ok((Verdict::OLE, format!("output over the limit of {output}")));
        }
        None => {}
    }
    if let Some(d) = run() {
        return Err(d);
    }
    Ok(match said {
        GameSaid::Accepted => (Verdict::AC, String::new()),
        GameSaid::Wrong(why) => (Verdict::WA, why.clone()),
        GameSaid::Unfinished(why) => (Verdict::WA, format!("{why}; the program exited with 0")),
    })
}

/// Which of the two runs of an interaction ended first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum First {
    Submission,
    Interactor,
}

/// How an interactor program's run ended, as far as the verdict cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InteractorEnd {
    /// It outlived the submission by more than `grace` and was stopped.
    Stuck { grace: Duration },
    /// Its runtime said it could not start it.
    NotStarted(String),
    /// It was stopped at one of its own limits.
    AtLimit(LimitHit),
    /// It exited: what its exit status says.
    Said(Said),
}

/// The verdict of a test played against an interactor program speaking
/// `protocol`: anything wrong with the interactor is `IE`; else
/// [`precedence`] decides between the submission's run (`run`) and the
/// interactor's word. `message` is the interactor's own (its
/// `judgemessage.txt` or stderr), appended to an `IE` or `WA`. Returns the
/// verdict, its message, and the run's reason when the run decided.
pub fn interaction(
    protocol: Protocol,
    first: First,
    interactor: InteractorEnd,
    run: Option<Decision>,
    message: &str,
) -> (Verdict, String, Option<Reason>) {
    let said = match interactor {
        InteractorEnd::Stuck { grace } => {
            return (
                Verdict::IE,
                format!(
                    "the interactor did not end within {} s after the submission ended",
                    grace.as_secs()
                ),
                None,
            );
        }
        InteractorEnd::NotStarted(said) => {
            return (
                Verdict::IE,
                format!("the interactor could not start: {said}"),
                None,
            );
        }
        InteractorEnd::AtLimit(hit) => {
            return with_message(
                Verdict::IE,
                format!("the interactor was stopped at its {hit:?} limit"),
                None,
                message,
            );
        }
        InteractorEnd::Said(said) => said,
    };
    let said = match said {
        Said::Failed(failure) => Err(interactor_failure(protocol, failure)),
        Said::Accepted => Ok(None),
        Said::Rejected(v) => Ok(Some(v)),
    };
    let shown = run.as_ref().map(|d| (d.verdict, d.reason.to_string()));
    let (verdict, what, reason) = match precedence(first, shown, said) {
        (v, Some(why)) => {
            // Not the interactor's failure (`IE`): the run's reason.
            let reason = if v != Verdict::IE {
                run.map(|d| d.reason)
            } else {
                None
            };
            (v, why, reason)
        }
        // The interactor's word: its message is the reason.
        (Verdict::AC, None) => return (Verdict::AC, String::new(), None),
        (v, None) => (v, "the interactor rejected the interaction".into(), None),
    };
    with_message(verdict, what, reason, message)
}

/// `what`, with the interactor's `message` after it on an `IE` or `WA`
/// (then no run's reason: the interactor's word is the reason).
fn with_message(
    verdict: Verdict,
    what: String,
    reason: Option<Reason>,
    message: &str,
) -> (Verdict, String, Option<Reason>) {
    if message.is_empty() || verdict != Verdict::IE && verdict != Verdict::WA {
        (verdict, what, reason)
    } else {
        (verdict, format!("{what}: {message}"), None)
    }
}

/// How an interactor's failure is told.
fn interactor_failure(protocol: Protocol, failure: Failure) -> String {
    match (protocol, failure) {
        (_, Failure::Fail) => "the interactor failed (testlib `fail`)".into(),
        (Protocol::Icpc, Failure::Code(c)) => {
            format!("the interactor exited with status {c} (42 accepts, 43 rejects)")
        }
        (Protocol::Testlib, Failure::Code(c)) => format!(
            "the interactor exited with status {c} (testlib: 0 ok, 1 wrong answer, 2 presentation error)"
        ),
        (_, Failure::Signal(s)) => format!("the interactor was killed by signal {s}"),
    }
}

/// The ICPC format's precedence between the interactor and the submission
/// (problemtools' and BAPCtools' reading of it): an interactor that failed
/// (`said` is `Err`, its reason) makes the test `IE`; one that ended first
/// and rejected (`Ok(Some(verdict))`) makes it that verdict (whatever the
/// submission did after, e.g. crash on the closed pipe); else the
/// submission's own run (`run`: a limit or a crash) decides, and last the
/// interactor's word (`Ok(None)`: accepted). Returns the verdict and its
/// reason, `None` when the interactor's word is the reason.
pub fn precedence(
    first: First,
    run: Option<(Verdict, String)>,
    said: Result<Option<Verdict>, String>,
) -> (Verdict, Option<String>) {
    match (said, run) {
        (Err(why), _) => (Verdict::IE, Some(why)),
        (Ok(Some(v)), _) if first == First::Interactor => (v, None),
        (_, Some((v, why))) => (v, Some(why)),
        (Ok(Some(v)), None) => (v, None),
        (Ok(None), None) => (Verdict::AC, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{AC, IE, OLE, RE, TLE, WA};

    /// The whole table, row by row: who ended first × the submission's own
    /// result × the interactor's word.
    #[test]
    fn precedence_table() {
        const S: First = First::Submission;
        const I: First = First::Interactor;
        let ok = || Ok(None);
        let wa = || Ok(Some(WA));
        let failed = || Err("exit 1".to_string());
        #[allow(clippy::type_complexity)]
        let rows: [(
            First,
            Option<Verdict>,
            Result<Option<Verdict>, String>,
            Verdict,
        ); 18] = [
            // The submission ended first: its crash or limit stands.
            (S, None, ok(), AC),
            (S, None, wa(), WA),
            (S, None, failed(), IE),
            (S, Some(RE), ok(), RE),
            (S, Some(RE), wa(), RE),
            (S, Some(RE), failed(), IE),
            (S, Some(TLE), ok(), TLE),
            (S, Some(TLE), wa(), TLE),
            (S, Some(TLE), failed(), IE),
            // The interactor ended first: its rejection stands, its
            // acceptance does not excuse a crash or limit after it.
            (I, None, ok(), AC),
            (I, None, wa(), WA),
            (I, None, failed(), IE),
            (I, Some(RE), ok(), RE),
            (I, Some(RE), wa(), WA),
            (I, Some(RE), failed(), IE),
            (I, Some(TLE), ok(), TLE),
            (I, Some(TLE), wa(), WA),
            (I, Some(TLE), failed(), IE),
        ];
        for (first, run, said, want) in rows {
            let row = format!("{first:?} {run:?} {said:?}");
            let (got, why) = precedence(first, run.map(|v| (v, "the run".into())), said);
            assert_eq!(got, want, "{row}");
            // The interactor's word carries no reason of its own: its
            // message is shown instead.
            assert_eq!(why.is_none(), got == AC || (got == WA), "{row}");
        }
    }

    fn crash() -> Decision {
        super::super::decide::not_started("boom")
    }

    /// Anything wrong with the interactor is `IE` before the precedence is
    /// asked, and only a limit or a failure quotes its message.
    #[test]
    fn an_interactor_in_trouble_is_ie() {
        use InteractorEnd::*;
        let rows = [
            (
                Stuck {
                    grace: Duration::from_secs(10),
                },
                "the interactor did not end within 10 s after the submission ended",
            ),
            (
                NotStarted("no python".into()),
                "the interactor could not start: no python",
            ),
            (
                AtLimit(LimitHit::Memory),
                "the interactor was stopped at its Memory limit: said",
            ),
            (
                Said(super::Said::Failed(Failure::Code(1))),
                "the interactor exited with status 1 (42 accepts, 43 rejects): said",
            ),
            (
                Said(super::Said::Failed(Failure::Signal(9))),
                "the interactor was killed by signal 9: said",
            ),
        ];
        for (end, want) in rows {
            for first in [First::Submission, First::Interactor] {
                let (v, message, reason) =
                    interaction(Protocol::Icpc, first, end.clone(), Some(crash()), "said");
                assert_eq!((v, message.as_str(), reason), (IE, want, None), "{end:?}");
            }
        }
        let (_, message, _) = interaction(
            Protocol::Testlib,
            First::Submission,
            Said(super::Said::Failed(Failure::Code(5))),
            None,
            "",
        );
        assert_eq!(
            message,
            "the interactor exited with status 5 (testlib: 0 ok, 1 wrong answer, 2 presentation error)"
        );
    }

    /// The interactor's word, or the run's reason when the run decided.
    #[test]
    fn the_run_or_the_interactor_decides() {
        let said = |s| InteractorEnd::Said(s);
        let (v, message, reason) = interaction(
            Protocol::Icpc,
            First::Submission,
            said(Said::Rejected(WA)),
            Some(crash()),
            "said",
        );
        assert_eq!(v, RE);
        assert_eq!(message, crash().reason.to_string());
        assert_eq!(reason, Some(crash().reason));
        let (v, message, reason) = interaction(
            Protocol::Icpc,
            First::Interactor,
            said(Said::Rejected(WA)),
            Some(crash()),
            "said",
        );
        assert_eq!(
            (v, message.as_str(), reason),
            (WA, "the interactor rejected the interaction: said", None)
        );
        let accepted = interaction(
            Protocol::Testlib,
            First::Interactor,
            said(Said::Accepted),
            None,
            "said",
        );
        assert_eq!(accepted, (AC, String::new(), None));
    }

    /// A game's rules: a decided game is `WA` whatever the run did; idle
    /// and flooding stop before the run is asked; then the run, then the
    /// interactor's word.
    #[test]
    fn the_game_table() {
        let asked = || -> Option<Decision> { panic!("the run is not asked") };
        let lost = GameSaid::Wrong("lost".into());
        assert_eq!(
            game(Some(Stop::Decided), &lost, asked),
            Ok((WA, "lost".into()))
        );
        let idle = Stop::Idle {
            idle: Duration::from_secs(3),
        };
        assert_eq!(
            game(Some(idle), &GameSaid::Accepted, asked),
            Ok((
                TLE,
                "idle: waited 3 s for your move (did you flush your output?)".into()
            ))
        );
        let flooded = Stop::Flooded {
            output: Bytes::mib(1),
        };
        assert_eq!(game(Some(flooded), &lost, asked).map(|(v, _)| v), Ok(OLE));
        // Decided but not lost (accepted early): the run decides first.
        assert_eq!(
            game(Some(Stop::Decided), &GameSaid::Accepted, || Some(crash())),
            Err(crash())
        );
        assert_eq!(
            game(None, &lost, || Some(crash())).map_err(|d| d.verdict),
            Err(RE)
        );
        assert_eq!(
            game(None, &GameSaid::Unfinished("waiting".into()), || None),
            Ok((WA, "waiting; the program exited with 0".into()))
        );
        assert_eq!(
            game(None, &GameSaid::Accepted, || None),
            Ok((AC, String::new()))
        );
    }
}
