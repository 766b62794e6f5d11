//! The leaves of grundy, which import nothing of grundy: sizes and
//! durations as specs write them, the names of a run's limits, located YAML
//! errors, files read and written beneath a folder without following
//! links, and text escaped for HTML.

pub mod beneath;
pub mod limit;
pub mod markup;
pub mod units;
pub mod yaml;
