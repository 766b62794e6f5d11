//! Catalog entry for `misere-nim` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "misere-nim",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
