//! The live scoreboard and the class's grades, computed from the
//! database with `grundy contest`'s scoring (`batch::contest::score`).
//!
//! **Freeze.** From the freeze on, the public and the teams see results of
//! submissions made before it only; later ones are shown as pending
//! (`?`) until the organiser unfreezes. The jury always sees the truth.
//!
//! **A class** (homework) counts each student's best or last score per
//! problem, a late one reduced by the late policy.

use std::collections::BTreeMap;

use rusqlite::Connection;

use super::clock::{Clock, Millis};
use super::config::{Config, Count, Late};
use super::db::{Context, DbResult};
use crate::batch::contest::score::{self, Attempt, Scoring, Standings};
use crate::batch::model::{ClassReport, Graded, ProblemInfo};
use crate::judge::SubmissionResult;
use crate::spec::ProblemId;
use crate::verdict::Verdict;

/// Who looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Everything judged.
    Truth,
    /// What the public and the teams see: frozen when the freeze is on.
    Public,
}

/// The scoreboard as a page draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    pub standings: Standings,
    /// Per (team login, problem): submissions not shown yet (judging, or
    /// made after the freeze).
    pub pending: BTreeMap<(String, ProblemId), usize>,
    /// Results after the freeze are hidden from this view.
    pub frozen: bool,
}

/// One team submission with the judging that counts.
struct Judged {
    login: String,
    problem: ProblemId,
    id: i64,
    time_ms: i64,
    contest_ms: i64,
    late: bool,
    verdict: Option<Verdict>,
    score: f64,
    result: Option<String>,
}

fn judged(c: &Connection, with_results: bool) -> DbResult<Vec<Judged>> {
    let sql =
        format!(
        "SELECT a.login, s.problem, s.id, s.time_ms, s.contest_ms, s.late, j.verdict, j.score, {}
         FROM submissions s JOIN accounts a ON a.id = s.account_id
         LEFT JOIN judgings j ON j.submission_id = s.id AND j.valid = 1
         WHERE a.role = 'team' ORDER BY s.id",
        if with_results { "j.result_json" } else { "NULL" }
    );
    let mut st = c.prepare_cached(&sql).what("cannot read the submissions")?;
    let rows = st
        .query_map([], |r| {
            let v: Option<String> = r.get(6)?;
            Ok(Judged {
                login: r.get(0)?,
                problem: ProblemId(r.get(1)?),
                id: r.get(2)?,
                time_ms: r.get(3)?,
                contest_ms: r.get(4)?,
                late: r.get::<_, i64>(5)? != 0,
                verdict: v.and_then(|v| v.parse().ok()),
                score: r.get::<_, Option<f64>>(7)?.unwrap_or(0.0),
                result: r.get(8)?,
            })
        })
        .what("cannot read the submissions")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot read the submissions")
}

/// The teams, by login, with their names.
fn teams(c: &Connection) -> DbResult<Vec<(String, String)>> {
    let mut st = c
        .prepare_cached("SELECT login, name FROM accounts WHERE role = 'team' ORDER BY login")
        .what("cannot list the teams")?;
    let rows = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .what("cannot list the teams")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list the teams")
}

/// The score a submission counts for under the late policy.
fn counted_score(config: &Config, late: bool, score: f64) -> f64 {
    match (late, config.homework.as_ref().map(|h| h.late)) {
        (true, Some(Late::Penalty(share))) => score * (1.0 - share),
        _ => score,
    }
}

/// The scoreboard for `view`; `thawed`: the organiser has unfrozen it.
pub fn board(
    c: &Connection,
    config: &Config,
    clock: &Clock,
    view: View,
    thawed: bool,
) -> DbResult<Board> {
    let frozen =
        view == View::Public && !thawed && clock.freeze.is_some_and(|f| Millis::now() >= f);
    let mut pending: BTreeMap<(String, ProblemId), usize> = BTreeMap::new();
    let mut attempts: Vec<Attempt> = Vec::new();
    let all = judged(c, false)?;
    let last_rule = config
        .homework
        .as_ref()
        .is_some_and(|h| h.count == Count::Last);
    for j in &all {
        let hidden = frozen && clock.after_freeze(Millis(j.time_ms));
        match j.verdict {
            Some(verdict) if !hidden => {
                if last_rule {
                    // Only the last judged submission counts.
                    attempts.retain(|a| !(a.contestant == j.login && a.problem == j.problem));
                }
                attempts.push(Attempt {
                    contestant: j.login.clone(),
                    problem: j.problem.clone(),
                    time: (j.contest_ms.max(0) / 1000) as u64,
                    file: format!("{:012}", j.id),
                    verdict,
                    score: counted_score(config, j.late, j.score),
                });
            }
            _ => {
                *pending
                    .entry((j.login.clone(), j.problem.clone()))
                    .or_default() += 1
            }
        }
    }
    let standings = score::standings(
        &config.title,
        config.scoring,
        config.penalty_minutes,
        &config.contest_problems(),
        &teams(c)?,
        &attempts,
    );
    Ok(Board {
        standings,
        pending,
        frozen,
    })
}

/// The class (or contest) as `grade`'s reports see it: per team and
/// problem, the submission that counts (ICPC: the first AC, else the
/// last judged; IOI and classes: the best, or the last under `count:
/// last`), with its score as counted.
pub fn class_report(
    c: &Connection,
    config: &Config,
    problems: &[ProblemInfo],
) -> DbResult<ClassReport> {
    let all = judged(c, true)?;
    let mut chosen: BTreeMap<(String, ProblemId), (f64, SubmissionResult)> = BTreeMap::new();
    let last_rule = config
        .homework
        .as_ref()
        .is_some_and(|h| h.count == Count::Last);
    for j in &all {
        let Some(mut result) = j
            .result
            .as_deref()
            .and_then(|t| serde_json::from_str::<SubmissionResult>(t).ok())
        else {
            continue;
        };
        result.score = counted_score(config, j.late, result.score);
        let key = (j.login.clone(), j.problem.clone());
        let better = match chosen.get(&key) {
            None => true,
            Some((_, old)) => match (config.scoring, last_rule) {
                (_, true) => true,
                (Scoring::Icpc, _) => old.verdict != Verdict::AC,
                (Scoring::Ioi, _) => result.score > old.score,
            },
        };
        if better {
            chosen.insert(key, (result.score, result));
        }
    }
    let students: Vec<String> = teams(c)?.into_iter().map(|(l, _)| l).collect();
    let graded = chosen
        .into_iter()
        .map(|((student, _), (_, result))| Graded {
            student,
            result,
            first_fail_input: None,
            smallest_failing_input: None,
        })
        .collect();
    Ok(ClassReport {
        students,
        problems: problems.to_vec(),
        graded,
        issues: Vec::new(),
        feedback: config.feedback,
        // Identical files between teams are not looked for in a served
        // contest.
        identical: Vec::new(),
    })
}
