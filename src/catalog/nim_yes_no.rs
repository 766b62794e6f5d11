//! Catalog entry for `nim-yes-no` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "nim-yes-no",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
