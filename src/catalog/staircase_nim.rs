//! Catalog entry for `staircase-nim` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "staircase-nim",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
