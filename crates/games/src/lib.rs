//! The games and their problems: each game's moves and win/lose search
//! ([`games`]), tests made from a problem's recipe with a seeded stream
//! ([`generate`]), and per problem its generators, input format and oracle
//! cases ([`catalog`]). Of grundy's crates it depends only on units: a
//! recipe's data files are read through `beneath`, and what a player wrote
//! is quoted in a verdict's message through `markup`.

// The crate below, under the module names the code uses (`crate::beneath::…`).
use grundy_units::{beneath, markup};

pub mod catalog;
pub mod games;
pub mod generate;
