//! `grundy serve`: a live contest or class in a browser ([`serve`]): the
//! contest file, the SQLite database, accounts, the judging queue and its
//! workers, the event log and the pages.

// The crates below, under the module names the code uses (`crate::judge::…`).
use grundy_judge::{cache, judge, language, problem, verdict};
use grundy_tools::{batch, export, report};
use grundy_units::{beneath, markup, units, yaml};

pub mod judgehost;
pub mod serve;
