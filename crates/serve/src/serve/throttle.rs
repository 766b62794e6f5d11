//! Login throttling: after a few failed logins in a window, an account (or
//! an address) is refused for a while, even with the right password, so
//! that guessing passwords costs hours instead of seconds.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use super::clock::Millis;

/// Failed logins allowed per account in [`WINDOW_MS`].
pub const PER_ACCOUNT: usize = 5;
/// Failed logins allowed per address in [`WINDOW_MS`] (a room behind one
/// address may hold many teams).
pub const PER_ADDRESS: usize = 30;
pub const WINDOW_MS: i64 = 5 * 60 * 1000;

#[derive(Default)]
pub struct Throttle {
    failures: Mutex<HashMap<String, Vec<Millis>>>,
}

/// Refused: try again in `seconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wait {
    pub seconds: i64,
    /// Locked is the address many accounts failed from, not the account:
    /// the person signing in did nothing wrong, and should be told so.
    pub address: bool,
}

impl Wait {
    /// The refusal as the person signing in as `login` reads it.
    pub fn sentence(&self, login: &str) -> String {
        if self.address {
            format!(
                "too many failed logins from your network address (other accounts' too, \
                 as from a room sharing one address): try again in {} seconds",
                self.seconds
            )
        } else {
            format!(
                "too many failed logins for `{login}`: try again in {} seconds",
                self.seconds
            )
        }
    }
}

impl Throttle {
    fn keys(login: &str, address: &str) -> [(String, usize); 2] {
        [
            (format!("login:{login}"), PER_ACCOUNT),
            (format!("address:{address}"), PER_ADDRESS),
        ]
    }

    /// Whether a login may be tried now.
    pub fn check(&self, login: &str, address: &str, now: Millis) -> Result<(), Wait> {
        let mut map = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        // Seconds each key (the account, then the address) is locked for.
        let mut locked = [0i64; 2];
        for ((key, most), wait) in Self::keys(login, address).into_iter().zip(&mut locked) {
            if let Some(times) = map.get_mut(&key) {
                times.retain(|t| now.0 - t.0 < WINDOW_MS);
                if times.len() >= most {
                    let oldest = times.iter().min().map_or(now.0, |t| t.0);
                    *wait = (oldest + WINDOW_MS - now.0 + 999) / 1000;
                }
            }
        }
        let [account, by_address] = locked;
        match account.max(by_address) {
            0 => Ok(()),
            seconds => Err(Wait {
                seconds,
                address: account == 0,
            }),
        }
    }

    pub fn failed(&self, login: &str, address: &str, now: Millis) {
        let mut map = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        for (key, _) in Self::keys(login, address) {
            map.entry(key).or_default().push(now);
        }
        // Bounded: forget windows that have passed when the map grows.
        if map.len() > 100_000 {
            map.retain(|_, v| v.iter().any(|t| now.0 - t.0 < WINDOW_MS));
        }
    }

    pub fn succeeded(&self, login: &str) {
        let mut map = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        map.remove(&format!("login:{login}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_locked_after_its_failures_and_freed_after_the_window() {
        let t = Throttle::default();
        let at = |s: i64| Millis(1_000_000 + s * 1000);
        for i in 0..PER_ACCOUNT as i64 {
            assert!(t.check("ana", "1.2.3.4", at(i)).is_ok());
            t.failed("ana", "1.2.3.4", at(i));
        }
        let Err(wait) = t.check("ana", "5.6.7.8", at(10)) else {
            panic!("not locked");
        };
        let w = wait.seconds;
        assert!(w > 0 && w <= WINDOW_MS / 1000, "{w}");
        assert!(!wait.address);
        assert!(
            wait.sentence("ana").contains("for `ana`"),
            "{}",
            wait.sentence("ana")
        );
        assert!(t.check("ben", "1.2.3.4", at(10)).is_ok());
        assert!(t.check("ana", "1.2.3.4", at(WINDOW_MS / 1000 + 5)).is_ok());
    }

    #[test]
    fn an_address_is_locked_after_many_accounts_fail() {
        let t = Throttle::default();
        for i in 0..PER_ADDRESS {
            t.failed(&format!("u{i}"), "9.9.9.9", Millis(0));
        }
        let Err(wait) = t.check("new", "9.9.9.9", Millis(1)) else {
            panic!("not locked");
        };
        // `new` never failed: the sentence blames the address, not them.
        assert!(wait.address);
        let said = wait.sentence("new");
        assert!(said.contains("address") && !said.contains("new"), "{said}");
        assert!(t.check("new", "9.9.9.8", Millis(1)).is_ok());
    }
}
