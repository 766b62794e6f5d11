//! What drives the judge and shows its results: grading a class and a
//! contest ([`batch`]), the report files and views ([`report`]), random
//! testing ([`stress`]), ICPC packages ([`export`]), new problems
//! ([`skeleton`]), mutation testing of a reference ([`mutants`], `syn`) and
//! who copied from whom ([`similarity`], tree-sitter).

// The crates below, under the module names the code uses (`crate::judge::…`).
use grundy_games::{catalog, games, generate};
use grundy_judge::{cache, judge, language, problem, verdict};
use grundy_sandbox::sandbox;
use grundy_units::{beneath, markup, yaml};

pub mod batch;
pub mod export;
pub mod mutants;
pub mod report;
pub mod similarity;
pub mod skeleton;
pub mod stress;
