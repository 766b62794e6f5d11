//! Games by their definitions: positions, moves, and the oracle that decides
//! small positions by exhaustive search (see [`search`]).
//!
//! This module knows nothing of input formats or problems; the catalog turns
//! its answers into expected outputs.

pub mod search;

pub mod bash;
pub mod described;
pub mod new_stone;
pub mod nim;
pub mod play;
pub mod staircase;
pub mod wythoff;
