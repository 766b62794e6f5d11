//! Catalog entry for `john` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "john",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
