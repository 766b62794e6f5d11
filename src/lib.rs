//! grundy: a judging and grading harness for impartial-game problems.
//!
//! Data flows one way: [`spec`] → [`generate`] → [`language`] (compile) →
//! [`sandbox`] (run) → [`check`] → [`judge`] (verdicts) → [`report`].
//! [`games`] decides positions by definition; [`catalog`] knows each
//! problem's generators and oracle cases.

pub mod batch;
pub mod beneath;
pub mod cache;
pub mod catalog;
pub mod check;
pub mod export;
pub mod games;
pub mod generate;
pub mod judge;
pub mod language;
pub mod markup;
pub mod mutants;
pub mod report;
pub mod sandbox;
pub mod serve;
pub mod similarity;
pub mod skeleton;
pub mod spec;
pub mod stress;
pub mod units;
pub mod verdict;
pub mod verify;
pub mod yaml;
