//! Judging: the problem model and its loading ([`problem`]), languages and
//! compiling ([`language`]) into the [`cache`], checkers ([`check`]),
//! verdicts and scores ([`verdict`]), judging a submission ([`judge`]) and
//! the regression check of a problem ([`verify`]).

// The crates below, under the module names the code uses (`crate::sandbox::…`).
use grundy_games::{catalog, games, generate};
use grundy_sandbox::sandbox;
use grundy_units::{beneath, limit, markup, units, yaml};

pub mod cache;
pub mod check;
pub mod judge;
pub mod language;
pub mod problem;
pub mod run_kind;
pub mod verdict;
pub mod verify;
