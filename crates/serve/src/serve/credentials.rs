//! Passwords sent with every request (HTTP basic authentication, as the
//! Contest API's clients do) are checked with argon2id once, then
//! remembered by their SHA-256 beside the hash they matched: a tool
//! polling the API every second costs a lookup, not a password check. A
//! password changed since (a new hash in the database) is checked again.
//! Nothing here keeps a password itself.

use std::collections::HashMap;
use std::sync::Mutex;

use sha2::{Digest, Sha256};

/// How many remembered pairs at most; past it the memory starts afresh.
const MAX_REMEMBERED: usize = 4096;

/// Login and password pairs checked already.
#[derive(Default)]
pub struct Remembered {
    /// SHA-256 of `login \0 password` → the stored hash it matched.
    seen: Mutex<HashMap<[u8; 32], String>>,
}

fn key(login: &str, password: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(login.as_bytes());
    h.update([0u8]);
    h.update(password.as_bytes());
    h.finalize().into()
}

impl Remembered {
    /// Whether this pair matched `stored_hash` before.
    pub fn knows(&self, login: &str, password: &str, stored_hash: &str) -> bool {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.get(&key(login, password))
            .is_some_and(|h| h == stored_hash)
    }

    /// Remembers that this pair matched `stored_hash`.
    pub fn remember(&self, login: &str, password: &str, stored_hash: &str) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() >= MAX_REMEMBERED {
            seen.clear();
        }
        seen.insert(key(login, password), stored_hash.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_known_only_with_the_hash_it_matched() {
        let r = Remembered::default();
        assert!(!r.knows("ana", "pw", "h1"));
        r.remember("ana", "pw", "h1");
        assert!(r.knows("ana", "pw", "h1"));
        assert!(
            !r.knows("ana", "pw", "h2"),
            "a changed password is checked again"
        );
        assert!(!r.knows("ana", "other", "h1"));
        assert!(
            !r.knows("an", "apw", "h1"),
            "login and password are kept apart"
        );
    }
}
