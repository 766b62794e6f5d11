//! The judging queue, in the database: a submission to judge is a job; a
//! judge takes a job by leasing it (a token and an expiry it renews while
//! it works), and its result is kept only if it still holds the lease
//! when it reports. A judge that dies loses its lease and the job goes to
//! another; a result reported twice, or by a judge whose lease was taken
//! over, is not stored twice: at most one finished judging per job (a
//! unique index says so too).
//!
//! The server's own workers are judges like any other, named `local-…`;
//! at start-up their leases from before are void (nothing of that
//! process runs any more) and their jobs are queued again at once.

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::json;

use super::clock::{Millis, contest_time};
use super::db::{Context, DbResult};
use super::events::{self, Kind, Op};
use super::judgement;
use crate::judge::{SubmissionResult, TestResult};

/// How long a lease lasts without renewal.
pub const LEASE_MS: i64 = 60_000;

/// The prefix of the server's own judges' names.
pub const LOCAL: &str = "local-";

/// A job held by a judge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub job: i64,
    pub judging: i64,
    pub submission: i64,
    pub host: String,
    pub token: String,
}

/// Why a job was queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    New,
    Rejudge,
}

impl Reason {
    fn name(self) -> &'static str {
        match self {
            Reason::New => "new",
            Reason::Rejudge => "rejudge",
        }
    }
}

pub fn enqueue(c: &Connection, submission: i64, reason: Reason) -> DbResult<i64> {
    c.prepare_cached(
        "INSERT INTO jobs (submission_id, reason, state, created_ms) VALUES (?1, ?2, 'queued', ?3)",
    )
    .and_then(|mut st| st.execute(params![submission, reason.name(), Millis::now().0]))
    .what("cannot queue a submission")?;
    Ok(c.last_insert_rowid())
}

/// Takes the oldest queued job, or one whose lease has expired, for
/// `host` (but none of a problem `host` said it cannot judge); `start` is
/// the contest's start (for the event's times). Leases are timed by the
/// server's clock alone: a judge host's clock never enters.
pub fn claim(
    c: &mut Connection,
    host: &str,
    start: Millis,
    now: Millis,
) -> DbResult<Option<Lease>> {
    let tx = c.transaction().what("cannot start a transaction")?;
    let found: Option<(i64, i64, String)> = tx
        .query_row(
            "SELECT id, submission_id, state FROM jobs
             WHERE (state = 'queued' OR (state = 'running' AND lease_expires_ms < ?1))
               AND NOT EXISTS (SELECT 1 FROM judgehost_refusals r JOIN submissions s
                               ON s.problem = r.problem
                               WHERE s.id = jobs.submission_id AND r.host = ?2)
             ORDER BY id LIMIT 1",
            params![now.0, host],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()
        .what("cannot read the queue")?;
    let Some((job, submission, state)) = found else {
        return Ok(None);
    };
    if state == "running" {
        abort_open(&tx, job)?;
    }
    let token = super::auth::token();
    tx.execute(
        "UPDATE jobs SET state = 'running', host = ?1, lease_token = ?2, lease_expires_ms = ?3,
         attempts = attempts + 1 WHERE id = ?4",
        params![host, token, now.0 + LEASE_MS, job],
    )
    .what("cannot lease a job")?;
    tx.execute(
        "INSERT INTO judgings (submission_id, job_id, host, started_ms) VALUES (?1, ?2, ?3, ?4)",
        params![submission, job, host, now.0],
    )
    .what("cannot start a judging")?;
    let judging = tx.last_insert_rowid();
    events::log(
        &tx,
        Kind::Judgements,
        &judging.to_string(),
        Op::Create,
        &json!({
            "id": judging.to_string(),
            "submission_id": submission.to_string(),
            "judgement_type_id": null,
            "start_time": now.rfc3339(),
            "start_contest_time": contest_time(now.0 - start.0),
            "end_time": null,
            "end_contest_time": null,
        }),
    )?;
    tx.commit().what("cannot lease a job")?;
    Ok(Some(Lease {
        job,
        judging,
        submission,
        host: host.to_string(),
        token,
    }))
}

/// Marks the unfinished judgings of a job as abandoned.
fn abort_open(c: &Connection, job: i64) -> DbResult<()> {
    c.execute(
        "UPDATE judgings SET aborted = 1 WHERE job_id = ?1 AND finished_ms IS NULL",
        [job],
    )
    .what("cannot abandon a judging")?;
    Ok(())
}

fn holds(c: &Connection, lease: &Lease) -> DbResult<bool> {
    let n: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM jobs WHERE id = ?1 AND state = 'running' AND lease_token = ?2",
            params![lease.job, lease.token],
            |r| r.get(0),
        )
        .what("cannot read a lease")?;
    Ok(n == 1)
}

/// Extends the lease; false when it was lost.
pub fn renew(c: &Connection, lease: &Lease, now: Millis) -> DbResult<bool> {
    let n = c
        .execute(
            "UPDATE jobs SET lease_expires_ms = ?1 WHERE id = ?2 AND state = 'running' AND lease_token = ?3",
            params![now.0 + LEASE_MS, lease.job, lease.token],
        )
        .what("cannot renew a lease")?;
    Ok(n == 1)
}

/// Records one test's result as it comes; false when the lease was lost.
pub fn record_run(
    c: &mut Connection,
    lease: &Lease,
    ordinal: usize,
    t: &TestResult,
    start: Millis,
) -> DbResult<bool> {
    let tx = c.transaction().what("cannot start a transaction")?;
    if !holds(&tx, lease)? {
        return Ok(false);
    }
    let now = Millis::now();
    let inserted = tx
        .execute(
            "INSERT OR IGNORE INTO runs (judging_id, ordinal, test, test_group, verdict, time_ms, at_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                lease.judging,
                ordinal as i64,
                t.name,
                t.group,
                t.verdict.code(),
                t.time_ms(),
                now.0
            ],
        )
        .what("cannot record a test's result")?;
    if inserted == 1 {
        let id = tx.last_insert_rowid();
        events::log(
            &tx,
            Kind::Runs,
            &id.to_string(),
            Op::Create,
            &json!({
                "id": id.to_string(),
                "judgement_id": lease.judging.to_string(),
                "ordinal": ordinal,
                "judgement_type_id": judgement::of(t.verdict).id,
                "time": now.rfc3339(),
                "contest_time": contest_time(now.0 - start.0),
                "run_time": t.time.as_secs_f64(),
            }),
        )?;
    }
    tx.commit().what("cannot record a test's result")?;
    Ok(true)
}

/// Stores the final result; false (and nothing stored) when the lease was
/// lost or the result was stored already.
pub fn finish(
    c: &mut Connection,
    lease: &Lease,
    result: &SubmissionResult,
    first_fail_input: Option<&str>,
    start: Millis,
) -> DbResult<bool> {
    let tx = c.transaction().what("cannot start a transaction")?;
    if !holds(&tx, lease)? {
        return Ok(false);
    }
    let now = Millis::now();
    let json = serde_json::to_string(result).unwrap_or_else(|_| "null".into());
    tx.execute(
        "UPDATE judgings SET valid = 0 WHERE submission_id = ?1 AND valid = 1",
        [lease.submission],
    )
    .what("cannot replace the judging that counted")?;
    let n = tx
        .execute(
            "UPDATE judgings SET finished_ms = ?1, verdict = ?2, score = ?3, result_json = ?4,
             first_fail_input = ?5, valid = 1 WHERE id = ?6 AND finished_ms IS NULL AND aborted = 0",
            params![
                now.0,
                result.verdict.code(),
                result.score,
                json,
                first_fail_input,
                lease.judging
            ],
        )
        .what("cannot store a judging")?;
    if n != 1 {
        return Ok(false); // dropped: the transaction rolls back
    }
    tx.execute(
        "UPDATE jobs SET state = 'done', lease_token = NULL, lease_expires_ms = NULL WHERE id = ?1",
        [lease.job],
    )
    .what("cannot close a job")?;
    let started: i64 = tx
        .query_row(
            "SELECT started_ms FROM judgings WHERE id = ?1",
            [lease.judging],
            |r| r.get(0),
        )
        .what("cannot read a judging")?;
    events::log(
        &tx,
        Kind::Judgements,
        &lease.judging.to_string(),
        Op::Update,
        &json!({
            "id": lease.judging.to_string(),
            "submission_id": lease.submission.to_string(),
            "judgement_type_id": judgement::of(result.verdict).id,
            "score": result.score,
            "start_time": Millis(started).rfc3339(),
            "start_contest_time": contest_time(started - start.0),
            "end_time": now.rfc3339(),
            "end_contest_time": contest_time(now.0 - start.0),
            "max_run_time": result.tests.iter().map(|t| t.time.as_secs_f64()).fold(0.0, f64::max),
        }),
    )?;
    tx.commit().what("cannot store a judging")?;
    Ok(true)
}

/// At start-up: the jobs this server's workers held before are queued
/// again (their judgings abandoned); returns how many.
pub fn requeue_local(c: &mut Connection) -> DbResult<usize> {
    let tx = c.transaction().what("cannot start a transaction")?;
    tx.execute(
        "UPDATE judgings SET aborted = 1 WHERE finished_ms IS NULL AND aborted = 0 AND job_id IN
         (SELECT id FROM jobs WHERE state = 'running' AND host LIKE ?1 || '%')",
        [LOCAL],
    )
    .what("cannot abandon judgings")?;
    let n = tx
        .execute(
            "UPDATE jobs SET state = 'queued', host = NULL, lease_token = NULL, lease_expires_ms = NULL
             WHERE state = 'running' AND host LIKE ?1 || '%'",
            [LOCAL],
        )
        .what("cannot queue judgings again")?;
    tx.commit().what("cannot queue judgings again")?;
    Ok(n)
}

/// Jobs waiting and running.
pub fn depth(c: &Connection) -> DbResult<(i64, i64)> {
    c.query_row(
        "SELECT COALESCE(SUM(state = 'queued'), 0), COALESCE(SUM(state = 'running'), 0) FROM jobs",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .what("cannot read the queue")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::ProblemId;
    use crate::serve::db::Db;

    fn setup() -> (tempfile::TempDir, Db, i64) {
        let t = tempfile::tempdir().expect("tempdir");
        let db = Db::open(&t.path().join("q.sqlite")).expect("db");
        let sub = db
            .with_writer(|c| {
                c.execute(
                    "INSERT INTO accounts (login, name, role, created_ms) VALUES ('ana', 'Ana', 'team', 0)",
                    [],
                )
                .what("a")?;
                c.execute(
                    "INSERT INTO submissions (account_id, problem, language, file_name, source, sha256, time_ms, contest_ms)
                     VALUES (1, 'nim', 'c', 'a.c', x'00', '', 0, 0)",
                    [],
                )
                .what("s")?;
                let s = c.last_insert_rowid();
                enqueue(c, s, Reason::New)?;
                Ok(s)
            })
            .expect("setup");
        (t, db, sub)
    }

    fn result() -> SubmissionResult {
        SubmissionResult::new("a.c", &ProblemId("nim".into()), "c")
    }

    #[test]
    fn a_lease_is_taken_once_and_a_result_stored_once() {
        let (_t, db, _) = setup();
        let now = Millis(1_000);
        let lease = db
            .with_writer(|c| claim(c, "local-1", Millis(0), now))
            .expect("claim")
            .expect("a job");
        assert!(
            db.with_writer(|c| claim(c, "local-2", Millis(0), now))
                .expect("claim")
                .is_none()
        );
        assert!(
            db.with_writer(|c| finish(c, &lease, &result(), None, Millis(0)))
                .expect("finish")
        );
        assert!(
            !db.with_writer(|c| finish(c, &lease, &result(), None, Millis(0)))
                .expect("again")
        );
        let finished: i64 = db
            .with_reader(|c| {
                c.query_row(
                    "SELECT COUNT(*) FROM judgings WHERE finished_ms IS NOT NULL",
                    [],
                    |r| r.get(0),
                )
                .what("count")
            })
            .expect("count");
        assert_eq!(finished, 1);
    }

    #[test]
    fn an_expired_lease_goes_to_another_judge_and_the_first_result_is_dropped() {
        let (_t, db, _) = setup();
        let first = db
            .with_writer(|c| claim(c, "host-a", Millis(0), Millis(0)))
            .expect("claim")
            .expect("a job");
        let later = Millis(LEASE_MS + 1);
        let second = db
            .with_writer(|c| claim(c, "host-b", Millis(0), later))
            .expect("claim")
            .expect("the expired job");
        assert_eq!(first.job, second.job);
        assert_ne!(first.judging, second.judging);
        assert!(
            !db.with_writer(|c| finish(c, &first, &result(), None, Millis(0)))
                .expect("late")
        );
        assert!(
            db.with_writer(|c| finish(c, &second, &result(), None, Millis(0)))
                .expect("finish")
        );
    }

    #[test]
    fn local_leases_are_queued_again_at_start_up() {
        let (_t, db, _) = setup();
        let lease = db
            .with_writer(|c| claim(c, "local-1", Millis(0), Millis(0)))
            .expect("claim")
            .expect("a job");
        assert_eq!(db.with_writer(requeue_local).expect("requeue"), 1);
        assert!(
            !db.with_writer(|c| finish(c, &lease, &result(), None, Millis(0)))
                .expect("void")
        );
        let again = db
            .with_writer(|c| claim(c, "local-2", Millis(0), Millis(0)))
            .expect("claim")
            .expect("queued again");
        assert_eq!(again.job, lease.job);
    }
}
