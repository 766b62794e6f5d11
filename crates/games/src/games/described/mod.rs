//! Games described by their rules in a problem's `game:` section rather
//! than written in Rust: the vocabulary ([`rules`]), the moves with their
//! parameters fixed ([`bound`]), the exhaustive search ([`positions`]),
//! one heap's Grundy values ([`values`]) with their period and its proof
//! ([`period`]), and what all that says of any position ([`analysis`]).
//!
//! Like the rest of `games`, this knows no input format: the catalog turns
//! a description into inputs, answers and generators.

pub mod analysis;
pub mod bound;
pub mod period;
pub mod play;
pub mod positions;
pub mod rules;
pub mod values;

pub use analysis::{Analysis, Theory};
pub use bound::Bound;
pub use period::{Period, Proof};
pub use positions::{Search, Step};
pub use rules::{Amount, Move, Rules, Take};
pub use values::HeapValues;

#[cfg(test)]
mod tests;
