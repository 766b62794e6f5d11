//! Units at the bottom of the crate: sizes ([`Bytes`]) and durations as
//! people write them in specs (`1s`, `500ms`, `256MiB`), so that every
//! module can carry a unit in a type without importing the problem loader.
//!
//! Parsing happens inside deserialisation so that a bad value is reported
//! by serde_yaml with its line and column.

use std::fmt;
use std::time::Duration;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

/// A time limit as written in a spec.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpecDuration(pub Duration);

/// A size as written in a spec.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpecBytes(pub Bytes);

/// A size in bytes; limits carry their unit in the type, not in a variable name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(pub u64);

impl Bytes {
    pub const fn mib(n: u64) -> Bytes {
        Bytes(n << 20)
    }
    pub fn kib(self) -> u64 {
        self.0 >> 10
    }

    /// `269.9 MiB`: for messages, where exact bytes only get in the way.
    pub fn human(self) -> String {
        format!("{:.1} MiB", self.0 as f64 / (1u64 << 20) as f64)
    }
}

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b >= 1 << 30 && b.is_multiple_of(1 << 30) {
            write!(f, "{} GiB", b >> 30)
        } else if b >= 1 << 20 && b.is_multiple_of(1 << 20) {
            write!(f, "{} MiB", b >> 20)
        } else if b >= 1 << 10 && b.is_multiple_of(1 << 10) {
            write!(f, "{} KiB", b >> 10)
        } else {
            write!(f, "{b} B")
        }
    }
}

const DURATION_HELP: &str = "a duration such as 1s, 1.5s or 500ms";
const BYTES_HELP: &str = "a size such as 256MiB, 1GiB or 65536KiB";

/// Parses `1s`, `2.5s`, `500ms`, or a bare number of seconds.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = num.trim().parse().ok()?;
    let secs = v * scale;
    (secs.is_finite() && secs > 0.0 && secs <= 3600.0).then(|| Duration::from_secs_f64(secs))
}

/// Parses `256MiB`, `1GiB`, `512KiB`, `64MB` (decimal) or a bare number of bytes.
pub fn parse_bytes(text: &str) -> Option<Bytes> {
    let t = text.trim();
    let units: [(&str, u64); 7] = [
        ("KiB", 1 << 10),
        ("MiB", 1 << 20),
        ("GiB", 1 << 30),
        ("kB", 1_000),
        ("MB", 1_000_000),
        ("GB", 1_000_000_000),
        ("B", 1),
    ];
    let (num, scale) = units
        .iter()
        .find_map(|(u, s)| t.strip_suffix(u).map(|n| (n, *s)))
        .unwrap_or((t, 1));
    let v: u64 = num.trim().parse().ok()?;
    let b = v.checked_mul(scale)?;
    (b > 0).then_some(Bytes(b))
}

struct DurationVisitor;

impl Visitor<'_> for DurationVisitor {
    type Value = SpecDuration;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(DURATION_HELP)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        parse_duration(v)
            .map(SpecDuration)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &DURATION_HELP))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.visit_str(&v.to_string())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.visit_str(&v.to_string())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.visit_str(&v.to_string())
    }
}

impl<'de> Deserialize<'de> for SpecDuration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DurationVisitor)
    }
}

struct BytesVisitor;

impl Visitor<'_> for BytesVisitor {
    type Value = SpecBytes;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(BYTES_HELP)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        parse_bytes(v)
            .map(SpecBytes)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &BYTES_HELP))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.visit_str(&v.to_string())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.visit_str(&v.to_string())
    }
}

impl<'de> Deserialize<'de> for SpecBytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(BytesVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1s"), Some(Duration::from_secs(1)));
        assert_eq!(parse_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("0s"), None);
        assert_eq!(parse_duration("fast"), None);
        assert_eq!(parse_duration("-1s"), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_bytes("256MiB"), Some(Bytes::mib(256)));
        assert_eq!(parse_bytes("1 GiB"), Some(Bytes(1 << 30)));
        assert_eq!(parse_bytes("64MB"), Some(Bytes(64_000_000)));
        assert_eq!(parse_bytes("100"), Some(Bytes(100)));
        assert_eq!(parse_bytes("lots"), None);
        assert_eq!(parse_bytes("99999999999999GiB"), None);
    }
}
