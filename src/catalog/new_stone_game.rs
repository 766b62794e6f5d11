//! Catalog entry for `new-stone-game` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "new-stone-game",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
