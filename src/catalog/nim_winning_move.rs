//! Catalog entry for `nim-winning-move` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "nim-winning-move",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
