//! Catalog entry for `nim-count-moves` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "nim-count-moves",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
