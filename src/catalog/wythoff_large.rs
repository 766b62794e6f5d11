//! Catalog entry for `wythoff-large` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "wythoff-large",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
