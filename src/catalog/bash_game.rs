//! Catalog entry for `bash-game` (to be written).

use super::{Entry, tokens_match};

pub const ENTRY: Entry = Entry {
    id: "bash-game",
    families: &[],
    oracle_cases: Vec::new,
    accepts: tokens_match,
};
