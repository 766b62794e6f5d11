//! Generator parameters as written in a problem spec.
//!
//! Parameters stay a loose map until a generator family reads them, so each
//! family can take the knobs it needs; the typed getters turn a missing or
//! mistyped knob into a message that names it.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::GenError;

/// The `params:` mapping of one generated test entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct Params(pub BTreeMap<String, serde_yaml::Value>);

impl Params {
    /// An integer knob, or `default` when it is absent.
    pub fn u64_or(&self, key: &str, default: u64) -> Result<u64, GenError> {
        match self.0.get(key) {
            None => Ok(default),
            Some(v) => v
                .as_u64()
                .ok_or_else(|| GenError::param(key, "a non-negative integer", v)),
        }
    }

    /// A required integer knob.
    pub fn u64(&self, key: &str) -> Result<u64, GenError> {
        match self.0.get(key) {
            None => Err(GenError::Missing(key.to_string())),
            Some(v) => v
                .as_u64()
                .ok_or_else(|| GenError::param(key, "a non-negative integer", v)),
        }
    }

    /// A range knob written either as one integer `n` or as `[lo, hi]`.
    pub fn range_or(&self, key: &str, default: (u64, u64)) -> Result<(u64, u64), GenError> {
        let Some(v) = self.0.get(key) else {
            return Ok(default);
        };
        if let Some(n) = v.as_u64() {
            return Ok((n, n));
        }
        let pair = v.as_sequence().and_then(|s| match s.as_slice() {
            [a, b] => Some((a.as_u64()?, b.as_u64()?)),
            _ => None,
        });
        match pair {
            Some((lo, hi)) if lo <= hi => Ok((lo, hi)),
            _ => Err(GenError::param(
                key,
                "an integer or a pair [lo, hi] with lo <= hi",
                v,
            )),
        }
    }

    /// A probability knob in `0.0..=1.0`.
    pub fn f64_or(&self, key: &str, default: f64) -> Result<f64, GenError> {
        match self.0.get(key) {
            None => Ok(default),
            Some(v) => v
                .as_f64()
                .filter(|x| (0.0..=1.0).contains(x))
                .ok_or_else(|| GenError::param(key, "a number between 0 and 1", v)),
        }
    }

    /// A boolean knob.
    pub fn bool_or(&self, key: &str, default: bool) -> Result<bool, GenError> {
        match self.0.get(key) {
            None => Ok(default),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| GenError::param(key, "true or false", v)),
        }
    }

    /// A string knob.
    pub fn str_or<'a>(&'a self, key: &str, default: &'a str) -> Result<&'a str, GenError> {
        match self.0.get(key) {
            None => Ok(default),
            Some(v) => v
                .as_str()
                .ok_or_else(|| GenError::param(key, "a string", v)),
        }
    }

    /// Rejects knobs the family does not know, so a typo is not silently ignored.
    pub fn only(&self, known: &[&str]) -> Result<(), GenError> {
        match self.0.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => Err(GenError::Unknown {
                key: k.clone(),
                known: known.join(", "),
            }),
        }
    }
}
