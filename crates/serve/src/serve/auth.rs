//! Sessions and forms: a session is a random token in an HttpOnly,
//! SameSite=Strict cookie, stored only as its SHA-256; every form carries
//! the session's CSRF token (the login form a token of its own, in a
//! cookie of its own). A new session is made at each login, whatever
//! cookie the browser brought, so that a planted cookie is never adopted.

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use super::accounts::{self, Account};
use super::clock::Millis;
use super::db::{Context, DbResult};

pub const SESSION_COOKIE: &str = "grundy_session";
pub const LOGIN_COOKIE: &str = "grundy_login";

/// How long a session lasts: a contest day.
pub const SESSION_HOURS: i64 = 16;

/// A signed-in session.
#[derive(Debug, Clone)]
pub struct Session {
    pub account: Account,
    pub csrf: String,
}

/// 32 random bytes as hex.
pub fn token() -> String {
    hex(&accounts::random_bytes::<32>())
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn digest(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Equal strings, compared in time that depends on the length only.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Starts a session for `account`; returns its cookie token.
pub fn start(c: &Connection, account: i64) -> DbResult<String> {
    let t = token();
    let now = Millis::now();
    c.execute(
        "INSERT INTO sessions (token_hash, account_id, csrf, created_ms, expires_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            digest(&t),
            account,
            token(),
            now.0,
            now.0 + SESSION_HOURS * 3_600_000
        ],
    )
    .what("cannot start a session")?;
    // Old sessions go when their time is up.
    c.execute("DELETE FROM sessions WHERE expires_ms < ?1", [now.0])
        .what("cannot remove expired sessions")?;
    Ok(t)
}

/// The live session of a cookie token.
pub fn find(c: &Connection, token: &str) -> DbResult<Option<Session>> {
    if token.len() != 64 {
        return Ok(None);
    }
    let found: Option<(i64, String)> = c
        .prepare_cached(
            "SELECT account_id, csrf FROM sessions WHERE token_hash = ?1 AND expires_ms > ?2",
        )
        .and_then(|mut st| {
            st.query_row(params![digest(token), Millis::now().0], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
        })
        .optional()
        .what("cannot read a session")?;
    let Some((id, csrf)) = found else {
        return Ok(None);
    };
    Ok(accounts::by_id(c, id)?.map(|account| Session { account, csrf }))
}

/// Ends the session of a cookie token.
pub fn end(c: &Connection, token: &str) -> DbResult<()> {
    c.execute(
        "DELETE FROM sessions WHERE token_hash = ?1",
        [digest(token)],
    )
    .what("cannot end a session")?;
    Ok(())
}

/// The value of cookie `name` in a `Cookie` header.
pub fn cookie<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header.split(';').find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == name).then_some(v)
    })
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Strict, the whole site.
pub fn set_cookie(name: &str, value: &str, max_age_secs: i64) -> String {
    format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age_secs}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_read_by_name() {
        let h = "a=1; grundy_session=abc; b=2";
        assert_eq!(cookie(h, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(h, "c"), None);
        assert!(set_cookie("x", "y", 5).contains("HttpOnly; SameSite=Strict"));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
        assert_eq!(token().len(), 64);
    }
}
