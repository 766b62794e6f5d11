//! Seeded test generation: turn a problem's samples and test groups into
//! concrete inputs, byte-identical on every machine for the same seed.

mod params;
mod rng;

pub use params::Params;
pub use rng::Rng;

use thiserror::Error;

/// Why a generator could not write a test.
#[derive(Debug, Error, PartialEq)]
pub enum GenError {
    #[error("parameter `{key}`: expected {expected}, found {found}")]
    Param {
        key: String,
        expected: &'static str,
        found: String,
    },
    #[error("missing parameter `{0}`")]
    Missing(String),
    #[error("unknown parameter `{key}` (this generator takes: {known})")]
    Unknown { key: String, known: String },
    #[error("{0}")]
    Impossible(String),
}

impl GenError {
    pub(crate) fn param(key: &str, expected: &'static str, found: &serde_yaml::Value) -> Self {
        let found = serde_yaml::to_string(found)
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "an unreadable value".into());
        GenError::Param {
            key: key.to_string(),
            expected,
            found,
        }
    }
}
