//! What the pages read: submissions with where their judging stands, a
//! submission's judgings, clarifications. Plain queries, no business rules.

use rusqlite::{Connection, OptionalExtension, params};

use super::clock::Millis;
use super::db::{Context, DbResult};
use crate::judge::SubmissionResult;
use crate::verdict::Verdict;

/// Where a submission's judging stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Queued,
    /// Being judged: tests done so far.
    Judging {
        tests: usize,
    },
    Judged {
        verdict: Verdict,
        score: f64,
    },
}

impl Status {
    /// `queued`, `judging (3 tests)`, `WA`.
    pub fn label(&self) -> String {
        match self {
            Status::Queued => "queued".into(),
            Status::Judging { tests: 0 } => "judging".into(),
            Status::Judging { tests } => format!("judging ({tests} tests done)"),
            Status::Judged { verdict, .. } => verdict.code().into(),
        }
    }

    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Status::Judged { verdict, .. } => Some(*verdict),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SubmissionRow {
    pub id: i64,
    pub account: i64,
    pub login: String,
    pub team: String,
    pub problem: String,
    pub language: String,
    pub file_name: String,
    pub time_ms: i64,
    pub contest_ms: i64,
    pub late: bool,
    pub status: Status,
    /// A new judging is under way (a rejudge) while an older one counts.
    pub rejudging: bool,
}

const ROW: &str = "SELECT s.id, s.account_id, a.login, a.name, s.problem, s.language, s.file_name,
    s.time_ms, s.contest_ms, s.late,
    (SELECT verdict FROM judgings WHERE submission_id = s.id AND valid = 1),
    (SELECT score FROM judgings WHERE submission_id = s.id AND valid = 1),
    (SELECT COUNT(*) FROM runs r JOIN judgings j ON j.id = r.judging_id
        WHERE j.submission_id = s.id AND j.finished_ms IS NULL AND j.aborted = 0),
    EXISTS (SELECT 1 FROM jobs WHERE submission_id = s.id AND state != 'done')
  FROM submissions s JOIN accounts a ON a.id = s.account_id";

/// A team's submissions, newest first.
const OF_ACCOUNT: &str = " WHERE s.account_id = ?1 ORDER BY s.id DESC LIMIT ?2";
/// One submission.
const ONE: &str = " WHERE s.id = ?1";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SubmissionRow> {
    let verdict: Option<String> = r.get(10)?;
    let score: Option<f64> = r.get(11)?;
    let running: i64 = r.get(12)?;
    let open: bool = r.get(13)?;
    let judged = verdict
        .as_deref()
        .and_then(|v| v.parse::<Verdict>().ok())
        .map(|verdict| Status::Judged {
            verdict,
            score: score.unwrap_or(0.0),
        });
    let status = match (&judged, open) {
        (Some(j), _) => j.clone(),
        (None, true) if running > 0 => Status::Judging {
            tests: running as usize,
        },
        (None, _) => Status::Queued,
    };
    Ok(SubmissionRow {
        id: r.get(0)?,
        account: r.get(1)?,
        login: r.get(2)?,
        team: r.get(3)?,
        problem: r.get(4)?,
        language: r.get(5)?,
        file_name: r.get(6)?,
        time_ms: r.get(7)?,
        contest_ms: r.get(8)?,
        late: r.get::<_, i64>(9)? != 0,
        rejudging: judged.is_some() && open,
        status,
    })
}

/// Submissions, newest first: of one account, or all.
pub fn submissions(
    c: &Connection,
    account: Option<i64>,
    limit: i64,
) -> DbResult<Vec<SubmissionRow>> {
    // Two statements: one that filters by account uses its index.
    let sql = match account {
        Some(_) => format!("{ROW}{OF_ACCOUNT}"),
        None => format!("{ROW} WHERE ?1 IS NULL ORDER BY s.id DESC LIMIT ?2"),
    };
    let mut st = c.prepare_cached(&sql).what("cannot list submissions")?;
    let rows = st
        .query_map(params![account, limit], row)
        .what("cannot list submissions")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list submissions")
}

pub fn submission(c: &Connection, id: i64) -> DbResult<Option<SubmissionRow>> {
    let sql = format!("{ROW}{ONE}");
    c.prepare_cached(&sql)
        .and_then(|mut st| st.query_row([id], row))
        .optional()
        .what("cannot read a submission")
}

pub fn source(c: &Connection, id: i64) -> DbResult<Option<Vec<u8>>> {
    c.prepare_cached("SELECT source FROM submissions WHERE id = ?1")
        .and_then(|mut st| st.query_row([id], |r| r.get(0)))
        .optional()
        .what("cannot read a source")
}

/// One judging of a submission.
#[derive(Debug, Clone, PartialEq)]
pub struct Judging {
    pub id: i64,
    pub host: String,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
    pub aborted: bool,
    pub valid: bool,
    pub result: Option<SubmissionResult>,
    pub first_fail_input: Option<String>,
}

/// A submission's judgings, oldest first.
pub fn judgings(c: &Connection, submission: i64) -> DbResult<Vec<Judging>> {
    let mut st = c
        .prepare_cached(
            "SELECT id, host, started_ms, finished_ms, aborted, valid, result_json, first_fail_input
             FROM judgings WHERE submission_id = ?1 ORDER BY id",
        )
        .what("cannot list judgings")?;
    let rows = st
        .query_map([submission], |r| {
            let json: Option<String> = r.get(6)?;
            Ok(Judging {
                id: r.get(0)?,
                host: r.get(1)?,
                started_ms: r.get(2)?,
                finished_ms: r.get(3)?,
                aborted: r.get::<_, i64>(4)? != 0,
                valid: r.get::<_, i64>(5)? != 0,
                result: json.and_then(|j| serde_json::from_str(&j).ok()),
                first_fail_input: r.get(7)?,
            })
        })
        .what("cannot list judgings")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list judgings")
}

/// The judging that counts, if any.
pub fn valid_judging(c: &Connection, submission: i64) -> DbResult<Option<Judging>> {
    Ok(judgings(c, submission)?.into_iter().find(|j| j.valid))
}

/// A clarification as pages show it.
#[derive(Debug, Clone, PartialEq)]
pub struct Clarification {
    pub id: i64,
    /// The asking team's login; `None`: from the jury.
    pub from: Option<String>,
    /// The team it is addressed to; `None` with `to_all`: everyone.
    pub to: Option<String>,
    pub to_all: bool,
    pub reply_to: Option<i64>,
    pub problem: Option<String>,
    pub text: String,
    pub time_ms: i64,
    pub answered: bool,
}

/// Clarifications `account` may read (`None`: all, for the jury), newest first.
pub fn clarifications(c: &Connection, account: Option<i64>) -> DbResult<Vec<Clarification>> {
    let mut st = c
        .prepare_cached(
            "SELECT k.id, f.login, t.login, k.to_all, k.reply_to, k.problem, k.text, k.time_ms, k.answered
             FROM clarifications k
             LEFT JOIN accounts f ON f.id = k.from_account
             LEFT JOIN accounts t ON t.id = k.to_account
             WHERE ?1 IS NULL OR k.from_account = ?1 OR k.to_account = ?1 OR k.to_all = 1
             ORDER BY k.id DESC",
        )
        .what("cannot list clarifications")?;
    let rows = st
        .query_map([account], |r| {
            Ok(Clarification {
                id: r.get(0)?,
                from: r.get(1)?,
                to: r.get(2)?,
                to_all: r.get::<_, i64>(3)? != 0,
                reply_to: r.get(4)?,
                problem: r.get(5)?,
                text: r.get(6)?,
                time_ms: r.get(7)?,
                answered: r.get::<_, i64>(8)? != 0,
            })
        })
        .what("cannot list clarifications")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list clarifications")
}

/// A refused request: when, from which address, which account, the
/// method, the path, the status and why.
pub type Refused = (i64, String, String, String, String, i64, String);

/// The latest refused requests.
pub fn audit(c: &Connection, limit: i64) -> DbResult<Vec<Refused>> {
    let mut st = c
        .prepare_cached(
            "SELECT time_ms, COALESCE(address, ''), COALESCE(account, ''), method, path, status, what
             FROM audit ORDER BY id DESC LIMIT ?1",
        )
        .what("cannot read the log")?;
    let rows = st
        .query_map([limit], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })
        .what("cannot read the log")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot read the log")
}

/// A judge host as the jury sees it: whether its token is revoked, when it
/// was last heard from, and the problems it gave back as unable to judge
/// them (problem, reason) since it last started.
#[derive(Debug, Clone, PartialEq)]
pub struct HostRow {
    pub name: String,
    pub revoked: bool,
    pub seen: Option<Millis>,
    pub refused: Vec<(String, String)>,
}

/// Every registered judge host, by name.
pub fn judge_hosts(c: &Connection) -> DbResult<Vec<HostRow>> {
    let mut st = c
        .prepare_cached(
            "SELECT name, revoked_ms IS NOT NULL, seen_ms FROM judgehosts ORDER BY name",
        )
        .what("cannot list judge hosts")?;
    let mut hosts = st
        .query_map([], |r| {
            Ok(HostRow {
                name: r.get(0)?,
                revoked: r.get(1)?,
                seen: r.get::<_, Option<i64>>(2)?.map(Millis),
                refused: Vec::new(),
            })
        })
        .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
        .what("cannot list judge hosts")?;
    let mut st = c
        .prepare_cached(
            "SELECT host, problem, reason FROM judgehost_refusals ORDER BY host, problem",
        )
        .what("cannot read judge hosts' refusals")?;
    let refusals = st
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get(1)?, r.get(2)?)))
        .and_then(|rows| rows.collect::<rusqlite::Result<Vec<(String, String, String)>>>())
        .what("cannot read judge hosts' refusals")?;
    for (host, problem, reason) in refusals {
        if let Some(h) = hosts.iter_mut().find(|h| h.name == host) {
            h.refused.push((problem, reason));
        }
    }
    Ok(hosts)
}

#[cfg(test)]
mod tests {
    use super::{OF_ACCOUNT, ONE, ROW};
    use crate::serve::db::Db;

    /// What SQLite plans for `sql`: one line per step.
    fn plan(db: &Db, sql: &str) -> String {
        db.with_reader(|c| {
            let mut st = c
                .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
                .expect("prepare");
            let args = vec![1; st.parameter_count()];
            let lines: Vec<String> = st
                .query_map(rusqlite::params_from_iter(args), |r| r.get::<_, String>(3))
                .expect("plan")
                .map(|l| l.expect("line"))
                .collect();
            Ok(lines.join("\n"))
        })
        .expect("reads")
    }

    /// A team's page and a submission's status are asked for all the
    /// time, by every team: they must find their rows by index, however
    /// many submissions and jobs the contest holds.
    #[test]
    fn a_teams_submissions_and_one_status_are_found_by_index_not_scanned() {
        let t = tempfile::tempdir().expect("tempdir");
        let db = Db::open(&t.path().join("c.sqlite")).expect("opens");
        for sql in [format!("{ROW}{OF_ACCOUNT}"), format!("{ROW}{ONE}")] {
            let p = plan(&db, &sql);
            assert!(!p.contains("SCAN"), "a table is scanned:\n{p}");
        }
    }
}
