//! grundy: a judging and grading harness for impartial-game problems.
//!
//! Data flows one way: [`problem`] → [`generate`] → [`language`] (compile) →
//! [`sandbox`] (run) → [`check`] → [`judge`] (verdicts) → [`report`].
//! [`games`] decides positions by definition; [`catalog`] knows each
//! problem's generators and oracle cases.
//!
//! The modules live in the workspace's crates (docs/architecture.md,
//! "Crates"); this library names each under its module name, so that
//! `grundy::judge::…` reads the same whichever crate holds it.

pub use grundy_games::{catalog, games, generate};
pub use grundy_judge::{cache, check, judge, language, problem, verdict, verify};
pub use grundy_sandbox::sandbox;
pub use grundy_serve::{judgehost, serve};
pub use grundy_tools::{batch, export, mutants, report, similarity, skeleton, stress};
pub use grundy_units::{beneath, limit, markup, units, yaml};
