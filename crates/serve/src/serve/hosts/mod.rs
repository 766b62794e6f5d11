//! Judge hosts: grundy on other machines (`grundy judgehost`) that lease
//! submissions from the server's queue over HTTP, judge them with their
//! own sandbox and post each test's result, exactly as the server's own
//! workers do in-process (`workers`, named `local-…`, are one host among
//! these).
//!
//! Each host has its own token, made by the organiser (`grundy serve
//! judgehost`) and kept here as its SHA-256; a revoked token is refused
//! at the next request, and the host's leases are queued again at once.
//! A host may post only for a lease it holds (the lease's secret is given
//! to it alone), so a host can judge wrongly what it was given, and
//! nothing else: it cannot touch another host's judging, a submission, an
//! account or the contest.
//!
//! `package` (a problem's folder by content hash), `wire` (the JSON both
//! sides speak), `routes` (the server's side of it).

pub mod package;
pub mod routes;
pub mod wire;

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use super::clock::Millis;
use super::db::{Context, DbResult};
use super::queue::{self, Lease};

/// Why a host name cannot be used.
pub fn bad_name(name: &str) -> Option<String> {
    if name.is_empty() || name.len() > 64 {
        return Some("a judge host's name has 1 to 64 characters".into());
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    {
        return Some("a judge host's name has only letters, digits, `.`, `_` and `-`".into());
    }
    if name.starts_with(queue::LOCAL) {
        return Some(format!(
            "`{}…` names the server's own workers: choose another name",
            queue::LOCAL
        ));
    }
    None
}

fn digest(token: &str) -> String {
    super::auth::hex(&Sha256::digest(token.as_bytes()))
}

/// Registers the host `name` with a new token (a host registered before
/// gets a new one, its old one void, and is no longer revoked); returns
/// the token, which is kept nowhere else.
pub fn add(c: &Connection, name: &str) -> DbResult<String> {
    let token = super::auth::token();
    c.execute(
        "INSERT INTO judgehosts (name, token_hash, created_ms) VALUES (?1, ?2, ?3)
         ON CONFLICT (name) DO UPDATE SET token_hash = excluded.token_hash,
           created_ms = excluded.created_ms, revoked_ms = NULL",
        params![name, digest(&token), Millis::now().0],
    )
    .what("cannot register a judge host")?;
    Ok(token)
}

/// Revokes the host `name`'s token and queues its judgings again; `None`
/// when there is no such host, else how many judgings were queued again.
pub fn revoke(c: &mut Connection, name: &str) -> DbResult<Option<usize>> {
    let tx = c.transaction().what("cannot start a transaction")?;
    let n = tx
        .execute(
            "UPDATE judgehosts SET revoked_ms = ?1 WHERE name = ?2",
            params![Millis::now().0, name],
        )
        .what("cannot revoke a judge host")?;
    if n == 0 {
        return Ok(None);
    }
    let requeued = release(&tx, name)?;
    tx.commit().what("cannot revoke a judge host")?;
    Ok(Some(requeued))
}

/// Abandons the host's running judgings and queues their jobs again.
fn release(c: &Connection, host: &str) -> DbResult<usize> {
    c.execute(
        "UPDATE judgings SET aborted = 1 WHERE finished_ms IS NULL AND aborted = 0 AND job_id IN
         (SELECT id FROM jobs WHERE state = 'running' AND host = ?1)",
        [host],
    )
    .what("cannot abandon judgings")?;
    c.execute(
        "UPDATE jobs SET state = 'queued', host = NULL, lease_token = NULL, lease_expires_ms = NULL
         WHERE state = 'running' AND host = ?1",
        [host],
    )
    .what("cannot queue judgings again")
}

/// The host a token belongs to, unless revoked; notes it was seen.
pub fn identify(c: &Connection, token: &str) -> DbResult<Option<String>> {
    let name: Option<String> = c
        .query_row(
            "SELECT name FROM judgehosts WHERE token_hash = ?1 AND revoked_ms IS NULL",
            [digest(token)],
            |r| r.get(0),
        )
        .optional()
        .what("cannot read judge hosts")?;
    if let Some(n) = &name {
        c.execute(
            "UPDATE judgehosts SET seen_ms = ?1 WHERE name = ?2",
            params![Millis::now().0, n],
        )
        .what("cannot note a judge host")?;
    }
    Ok(name)
}

/// The lease `job`/`secret` if `host` holds it now.
pub fn lease_of(c: &Connection, host: &str, job: i64, secret: &str) -> DbResult<Option<Lease>> {
    c.query_row(
        "SELECT j.submission_id, g.id FROM jobs j JOIN judgings g ON g.job_id = j.id
         WHERE j.id = ?1 AND j.state = 'running' AND j.host = ?2 AND j.lease_token = ?3
           AND g.host = ?2 AND g.finished_ms IS NULL AND g.aborted = 0
         ORDER BY g.id DESC LIMIT 1",
        params![job, host, secret],
        |r| {
            Ok(Lease {
                job,
                judging: r.get(1)?,
                submission: r.get(0)?,
                host: host.to_string(),
                token: secret.to_string(),
            })
        },
    )
    .optional()
    .what("cannot read a lease")
}

/// The host gives the lease back, unable to judge the problem: the job is
/// queued again and the problem is not given to this host again until it
/// starts again ([`forget_refusals`]).
pub fn refuse(c: &mut Connection, lease: &Lease, problem: &str, reason: &str) -> DbResult<()> {
    let tx = c.transaction().what("cannot start a transaction")?;
    tx.execute(
        "INSERT OR REPLACE INTO judgehost_refusals (host, problem, reason, at_ms) VALUES (?1, ?2, ?3, ?4)",
        params![lease.host, problem, reason, Millis::now().0],
    )
    .what("cannot note a refusal")?;
    requeue(&tx, lease)?;
    tx.commit().what("cannot note a refusal")?;
    Ok(())
}

/// Forgets the problems `host` refused (when it starts again); how many.
pub fn forget_refusals(c: &Connection, host: &str) -> DbResult<usize> {
    c.execute("DELETE FROM judgehost_refusals WHERE host = ?1", [host])
        .what("cannot forget a judge host's refusals")
}

/// The host gives the lease back for now (a failure it expects to pass,
/// such as the package's download breaking off): the job is queued again,
/// for any host, this one included; nothing is held against the host.
pub fn give_back(c: &mut Connection, lease: &Lease) -> DbResult<()> {
    let tx = c.transaction().what("cannot start a transaction")?;
    requeue(&tx, lease)?;
    tx.commit().what("cannot give a lease back")?;
    Ok(())
}

/// Abandons the lease's judging and queues its job again.
fn requeue(c: &Connection, lease: &Lease) -> DbResult<()> {
    c.execute(
        "UPDATE judgings SET aborted = 1 WHERE id = ?1 AND finished_ms IS NULL",
        [lease.judging],
    )
    .what("cannot abandon a judging")?;
    c.execute(
        "UPDATE jobs SET state = 'queued', host = NULL, lease_token = NULL, lease_expires_ms = NULL
         WHERE id = ?1 AND lease_token = ?2",
        params![lease.job, lease.token],
    )
    .what("cannot queue a judging again")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::db::Db;

    #[test]
    fn a_revoked_token_names_no_host_and_a_new_one_voids_the_old() {
        let t = tempfile::tempdir().expect("tempdir");
        let db = Db::open(&t.path().join("h.sqlite")).expect("db");
        let first = db.with_writer(|c| add(c, "rack-1")).expect("add");
        assert_eq!(
            db.with_writer(|c| identify(c, &first)).expect("id"),
            Some("rack-1".to_string())
        );
        let second = db.with_writer(|c| add(c, "rack-1")).expect("again");
        assert_eq!(db.with_writer(|c| identify(c, &first)).expect("id"), None);
        assert_eq!(
            db.with_writer(|c| revoke(c, "rack-1")).expect("revoke"),
            Some(0)
        );
        assert_eq!(db.with_writer(|c| identify(c, &second)).expect("id"), None);
        assert_eq!(
            db.with_writer(|c| revoke(c, "nobody")).expect("revoke"),
            None
        );
    }

    #[test]
    fn names_of_the_servers_own_workers_are_refused() {
        assert!(bad_name("local-1").is_some());
        assert!(bad_name("a b").is_some());
        assert!(bad_name("").is_some());
        assert!(bad_name("rack-1.example").is_none());
    }
}
