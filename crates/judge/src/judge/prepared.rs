//! A problem ready to judge: its tests on disk, its checker, its
//! interactor, and the kind of test it has, chosen once when it is
//! prepared ([`Kind`]). Written by `prepare`, read by every kind of test.

use std::path::PathBuf;
use std::sync::Arc;

use super::result::SubmissionResult;
use super::trusted::ReferenceError;
use crate::check::Checker;
use crate::games::play::Game;
use crate::language::Compiled;
use crate::problem::{InteractorSpec, Problem};
use crate::verdict::protocol::Protocol;

/// One test ready to judge.
#[derive(Debug, Clone)]
pub struct PreparedTest {
    pub name: String,
    pub group: String,
    pub input: PathBuf,
    /// The expected output, or why there is none (reported as `IE`).
    pub answer: Result<PathBuf, NoAnswer>,
}

/// Why a test has no expected output; the test is then `IE`, with this as
/// its message. Shared (`Arc`) because a prepared problem is cloned.
#[derive(Debug, Clone, thiserror::Error)]
pub enum NoAnswer {
    /// The test's own answer could not be stored in the cache.
    #[error("{0}")]
    Store(Arc<std::io::Error>),
    #[error("{0}")]
    Reference(Arc<ReferenceError>),
    #[error("no answer: {} names no reference solution and the test gives none", spec.display())]
    NoReference { spec: PathBuf },
    /// `grundy run` without `--answer`.
    #[error("no answer given")]
    NotGiven,
    /// A described game that cannot decide the test, and no reference.
    #[error("no answer: the game described in {} cannot decide this test ({why}), and the spec names no reference solution to answer it", spec.display())]
    Undecided { spec: PathBuf, why: String },
}

/// A problem with everything judging needs.
pub struct Prepared {
    pub problem: Problem,
    pub tests: Vec<PreparedTest>,
    pub checker: Box<dyn Checker>,
    /// The problem's interactor program, compiled (not for a built-in game).
    pub interactor: Option<Compiled>,
    /// Whether a validator's score files count (a scoring ICPC package):
    /// found once here, so that an accepted test does not read the
    /// package's `problem.yaml` again or look for files nobody writes.
    pub scoring: bool,
    /// The groups of a scoring package whose validator's `score.txt` is
    /// not read (`problem::PackageFacts::unscored_groups`).
    pub unscored_groups: Vec<String>,
    /// How every test is judged, chosen once here.
    pub kind: Kind,
    /// The submissions judged while the time limit was derived, with
    /// their results under the measuring limit (`derive_time`): a result
    /// whose every run is within the derived limit is the verdict under
    /// it, so `verify` reuses it instead of running them again.
    pub measured: Vec<MeasuredRun>,
}

/// A submission judged on every test to derive the time limit.
#[derive(Debug, Clone)]
pub struct MeasuredRun {
    pub path: PathBuf,
    /// The language it was judged as when not detected (`submissions.yaml`).
    pub language: Option<String>,
    pub result: SubmissionResult,
}

/// How every test of a problem is judged: one file of `judge/` each.
#[derive(Debug, Clone)]
pub enum Kind {
    /// Run on the input, then the output checked (`outcome.rs`).
    Ordinary,
    /// Played against a game the judge plays itself (`interactive.rs`).
    Game(PlayedGame),
    /// Connected to the problem's interactor program, which speaks
    /// `protocol` and takes `args` (`interactor_program.rs`).
    Interactor {
        protocol: Protocol,
        args: Vec<String>,
    },
    /// Run in up to `passes` passes, each judged as an ordinary or an
    /// interactor test (`multipass.rs`).
    MultiPass { passes: u32 },
}

impl Kind {
    /// The kind of test of `problem`, its interactor program compiled as
    /// `interactor` (none for a built-in game).
    pub fn of(problem: &Problem, interactor: Option<&Compiled>) -> Kind {
        if let Some(passes) = problem.passes {
            return Kind::MultiPass { passes };
        }
        if let Some(game) = PlayedGame::of(problem) {
            return Kind::Game(game);
        }
        match (&problem.interactor, interactor) {
            (Some(InteractorSpec::Builtin(_) | InteractorSpec::Described), _) => Kind::Ordinary,
            (Some(spec), Some(_)) => {
                let (protocol, args) = protocol_of(spec);
                Kind::Interactor {
                    protocol,
                    args: args.to_vec(),
                }
            }
            _ => Kind::Ordinary,
        }
    }
}

/// The exit protocol of the interactor `spec` names (how it is called),
/// and its arguments.
pub fn protocol_of(spec: &InteractorSpec) -> (Protocol, &[String]) {
    match spec {
        InteractorSpec::Testlib(_) => (Protocol::Testlib, &[]),
        InteractorSpec::Icpc { args, .. } => (Protocol::Icpc, args),
        // Never compiled: a built-in or described game is played in-process.
        InteractorSpec::Builtin(_) | InteractorSpec::Described => (Protocol::Icpc, &[]),
    }
}

/// What the judge plays: a built-in game, or the problem's described one.
#[derive(Clone)]
pub enum PlayedGame {
    Builtin(Game),
    Described(Arc<crate::catalog::described::GameSpec>),
}

impl std::fmt::Debug for PlayedGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayedGame::Builtin(g) => write!(f, "Builtin({})", g.name()),
            PlayedGame::Described(_) => f.write_str("Described"),
        }
    }
}

impl PlayedGame {
    /// The game `problem` is played with, if it is a played problem with
    /// a game the judge plays itself.
    pub fn of(problem: &Problem) -> Option<PlayedGame> {
        match (&problem.interactor, &problem.game) {
            (Some(InteractorSpec::Builtin(name)), _) => {
                Game::from_name(name).map(PlayedGame::Builtin)
            }
            (Some(InteractorSpec::Described), Some(g)) => {
                Some(PlayedGame::Described(Arc::clone(g)))
            }
            _ => None,
        }
    }
}
