//! Catalog entry for `wythoff` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "wythoff",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
