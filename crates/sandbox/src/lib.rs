//! One run of a program: a command, its stdin, its limits and its isolation
//! in; the facts of how it went out (see [`sandbox`]). Knows nothing of
//! problems or verdicts: it depends on no crate of grundy but units.

// The crate below, under the module names the code uses (`crate::units::…`).
use grundy_units::{limit, units};

pub mod sandbox;
