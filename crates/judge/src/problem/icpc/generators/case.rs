//! What one test case of `generators.yaml` expands to: `count:` makes it
//! several, and its command's `{seed}` and `{name}` are filled in as
//! BAPCtools fills them.

use serde_yaml::Value;
use sha2::{Digest, Sha512};

use super::Skip;

/// `count: 3` is 1..=3; `count: [7, -3]` those; `count: 10..=12` a range.
pub(super) fn counts(v: Option<&Value>) -> Result<Vec<i64>, Skip> {
    match v {
        None => Ok(vec![1]),
        Some(Value::Number(n)) => {
            let n = n.as_i64().filter(|n| (1..=10_000).contains(n));
            n.map(|n| (1..=n).collect()).ok_or(Skip::CountRange)
        }
        Some(Value::Sequence(items)) => items
            .iter()
            .map(|i| i.as_i64().ok_or(Skip::CountList))
            .collect(),
        Some(Value::String(s)) => {
            let (a, b) = s
                .split_once("..=")
                .ok_or_else(|| Skip::CountSpan(s.clone()))?;
            let (a, b): (i64, i64) = (
                a.trim().parse().map_err(|_| Skip::CountBound(s.clone()))?,
                b.trim().parse().map_err(|_| Skip::CountBound(s.clone()))?,
            );
            if b < a || b - a > 10_000 {
                return Err(Skip::CountLength(s.clone()));
            }
            Ok((a..=b).collect())
        }
        Some(_) => Err(Skip::CountShape),
    }
}

/// BAPCtools' seed: the SHA-512 of salt and command as a number, modulo
/// 2^31 (the last four bytes of the digest, big-endian, top bit cleared).
pub fn seed_of(text: &str) -> u64 {
    let digest = Sha512::digest(text.as_bytes());
    let tail = &digest[digest.len() - 4..];
    u64::from(u32::from_be_bytes([tail[0], tail[1], tail[2], tail[3]]) & 0x7fff_ffff)
}

/// `{seed}` or `{seed:N}` becomes the seed; `{name}` becomes `testcase`
/// (the name BAPCtools runs every generator under).
pub(super) fn substitute(word: &str, seed: u64) -> String {
    let mut w = word.replace("{name}", "testcase");
    if let Some(start) = w.find("{seed")
        && let Some(len) = w[start..].find('}')
    {
        let tag = w[start..=start + len].to_string();
        let ok = tag == "{seed}"
            || tag
                .strip_prefix("{seed:")
                .and_then(|t| t.strip_suffix('}'))
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
        if ok {
            w = w.replacen(&tag, &seed.to_string(), 1);
        }
    }
    w
}
