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
use crate::problem::ProblemId;
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

/// What a scoreboard is computed from, in a few numbers read by index:
/// the last submission, the judgings that count, the teams. When none
/// changed, neither did the scoreboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    view: View,
    frozen: bool,
    last_submission: i64,
    counted: (i64, i64),
    teams: (i64, i64),
}

fn key(c: &Connection, view: View, frozen: bool) -> DbResult<Key> {
    c.prepare_cached(
        "SELECT (SELECT IFNULL(MAX(id), 0) FROM submissions),
                (SELECT COUNT(*) FROM judgings WHERE valid = 1),
                (SELECT IFNULL(SUM(id), 0) FROM judgings WHERE valid = 1),
                (SELECT COUNT(*) FROM accounts WHERE role = 'team'),
                (SELECT IFNULL(MAX(id), 0) FROM events WHERE type = 'teams')",
    )
    .and_then(|mut st| {
        st.query_row([], |r| {
            Ok(Key {
                view,
                frozen,
                last_submission: r.get(0)?,
                counted: (r.get(1)?, r.get(2)?),
                teams: (r.get(3)?, r.get(4)?),
            })
        })
    })
    .what("cannot read what the scoreboard depends on")
}

/// The scoreboards computed last, one per view and freeze: every page
/// and API client asks for the scoreboard, and between two results it is
/// the same; recomputing it from every submission each time cost the
/// server most of its time under a crowd.
///
/// One is computed at a time: a result moves the scoreboard for every page
/// at once, and the pages asking for it then wait for one computation
/// instead of each making its own on a busy CPU.
#[derive(Default)]
pub struct Boards {
    last: std::sync::Mutex<Vec<(Key, std::sync::Arc<Board>)>>,
    computing: std::sync::Mutex<()>,
    /// Boards computed from every submission (the others were the last
    /// one with new submissions added as pending).
    full: std::sync::atomic::AtomicUsize,
}

/// The team and problem of each team submission with `after < id <= upto`.
fn unjudged_since(c: &Connection, after: i64, upto: i64) -> DbResult<Vec<(String, ProblemId)>> {
    let mut st = c
        .prepare_cached(
            "SELECT a.login, s.problem FROM submissions s JOIN accounts a ON a.id = s.account_id
             WHERE s.id > ?1 AND s.id <= ?2 AND a.role = 'team'",
        )
        .what("cannot read the new submissions")?;
    let rows = st
        .query_map([after, upto], |r| Ok((r.get(0)?, ProblemId(r.get(1)?))))
        .what("cannot read the new submissions")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot read the new submissions")
}

impl Boards {
    /// How many boards were computed from every submission so far.
    pub fn computed_in_full(&self) -> usize {
        self.full.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The scoreboard for `view` if the one kept is current, or none:
    /// a few numbers read by index and nothing computed (quick enough for
    /// the async threads; [`Boards::get`] computes).
    pub fn kept_for(
        &self,
        c: &Connection,
        clock: &Clock,
        view: View,
        thawed: bool,
    ) -> DbResult<Option<std::sync::Arc<Board>>> {
        Ok(self.kept(&key(c, view, is_frozen(clock, view, thawed))?))
    }

    fn kept(&self, k: &Key) -> Option<std::sync::Arc<Board>> {
        self.last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|(old, _)| old == k)
            .map(|(_, b)| std::sync::Arc::clone(b))
    }

    /// The scoreboard for `view`, computed again only when what it is
    /// computed from changed (see [`board`]).
    pub fn get(
        &self,
        c: &Connection,
        config: &Config,
        clock: &Clock,
        view: View,
        thawed: bool,
    ) -> DbResult<std::sync::Arc<Board>> {
        let frozen = is_frozen(clock, view, thawed);
        let k = key(c, view, frozen)?;
        let lock = || {
            self.last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(b) = self.kept(&k) {
            return Ok(b);
        }
        let _alone = self
            .computing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Computed meanwhile by the page this one waited for?
        let k = key(c, view, frozen)?;
        if let Some(b) = self.kept(&k) {
            return Ok(b);
        }
        // Only new submissions since the board of this view: none of them
        // is judged (the judgings that count are the same), so each is one
        // more pending try, and the rest of the board stands.
        let before = lock()
            .iter()
            .find(|(old, _)| {
                (old.view, old.frozen, old.counted, old.teams)
                    == (k.view, k.frozen, k.counted, k.teams)
                    && old.last_submission < k.last_submission
            })
            .map(|(old, b)| (old.last_submission, std::sync::Arc::clone(b)));
        let b = match before {
            Some((since, old)) => {
                let mut b = (*old).clone();
                for try_ in unjudged_since(c, since, k.last_submission)? {
                    *b.pending.entry(try_).or_default() += 1;
                }
                std::sync::Arc::new(b)
            }
            None => {
                self.full.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                std::sync::Arc::new(board(c, config, clock, view, thawed)?)
            }
        };
        let mut last = lock();
        last.retain(|(old, _)| (old.view, old.frozen) != (k.view, k.frozen));
        last.push((k, std::sync::Arc::clone(&b)));
        Ok(b)
    }
}

/// Whether `view` hides results after the freeze now.
fn is_frozen(clock: &Clock, view: View, thawed: bool) -> bool {
    view == View::Public && !thawed && clock.freeze.is_some_and(|f| Millis::now() >= f)
}

/// The scoreboard for `view`; `thawed`: the organiser has unfrozen it.
pub fn board(
    c: &Connection,
    config: &Config,
    clock: &Clock,
    view: View,
    thawed: bool,
) -> DbResult<Board> {
    let frozen = is_frozen(clock, view, thawed);
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::serve::db::Db;

    /// Judges submission `id` with `verdict` (a valid judging).
    fn judge(db: &Db, id: i64, verdict: &str) {
        db.with_writer(|c| {
            c.execute(
                "INSERT INTO jobs (submission_id, reason, state, created_ms) VALUES (?1, 'new', 'done', 0)",
                [id],
            )
            .what("job")?;
            let job = c.last_insert_rowid();
            c.execute("UPDATE judgings SET valid = 0 WHERE submission_id = ?1", [id])
                .what("old")?;
            c.execute(
                "INSERT INTO judgings (submission_id, job_id, host, started_ms, finished_ms, verdict, score, valid)
                 VALUES (?1, ?2, 'h', 0, 1, ?3, 0, 1)",
                rusqlite::params![id, job, verdict],
            )
            .what("judging")?;
            Ok(())
        })
        .expect("judged");
    }

    fn submit(db: &Db, account: i64) -> i64 {
        db.with_writer(|c| {
            c.execute(
                "INSERT INTO submissions (account_id, problem, language, file_name, source, sha256, time_ms, contest_ms)
                 VALUES (?1, 'nim', 'c', 'a.c', x'00', '', 60000, 60000)",
                [account],
            )
            .what("submission")?;
            Ok(c.last_insert_rowid())
        })
        .expect("submitted")
    }

    /// Asked again with nothing changed, the scoreboard is the one computed
    /// before; a new submission, a judging, a rejudging or a new team each
    /// give a new one, equal to one computed from nothing.
    #[test]
    fn a_scoreboard_is_computed_again_only_when_what_it_shows_changed() {
        let t = tempfile::tempdir().expect("tempdir");
        let db = Db::open(&t.path().join("c.sqlite")).expect("db");
        let config = crate::serve::config::parse(
            Path::new("c.yaml"),
            "problems: [nim]\nteams: [ana, ben]\n",
            &["c".to_string()],
        )
        .expect("config");
        let clock = Clock {
            start: Millis(0),
            end: None,
            freeze: None,
        };
        db.with_writer(|c| {
            for login in ["ana", "ben"] {
                crate::serve::accounts::upsert(
                    c,
                    login,
                    login,
                    crate::serve::accounts::Role::Team,
                    None,
                )?;
            }
            Ok(())
        })
        .expect("teams");
        let boards = Boards::default();
        let get = || {
            db.with_reader(|c| boards.get(c, &config, &clock, View::Truth, false))
                .expect("board")
        };
        let fresh = || {
            db.with_reader(|c| board(c, &config, &clock, View::Truth, false))
                .expect("board")
        };
        let first = get();
        assert!(std::sync::Arc::ptr_eq(&first, &get()), "computed again");
        let mut seen = vec![first];
        // New submissions add pending tries to the board there was.
        let full = boards.computed_in_full();
        let s = submit(&db, 1);
        seen.push(get());
        assert_eq!(*get(), fresh(), "one new submission");
        submit(&db, 2);
        submit(&db, 1);
        assert_eq!(*get(), fresh(), "two more");
        assert_eq!(
            boards.computed_in_full(),
            full,
            "computed in full for new submissions"
        );
        judge(&db, s, "WA");
        seen.push(get());
        assert_eq!(*get(), fresh(), "a judging");
        assert_eq!(
            boards.computed_in_full(),
            full + 1,
            "a judging is computed in full"
        );
        judge(&db, s, "AC");
        seen.push(get());
        db.with_writer(|c| {
            crate::serve::accounts::upsert(c, "cy", "Cy", crate::serve::accounts::Role::Team, None)
        })
        .expect("a new team");
        seen.push(get());
        for pair in seen.windows(2) {
            assert_ne!(pair[0], pair[1], "a change was not seen");
        }
        assert_eq!(*get(), fresh());
        assert_eq!(get().standings.rows.len(), 3);
        // Pages asking at once after a change share one computation.
        submit(&db, 2);
        let at_once = std::sync::Barrier::new(crate::serve::db::READERS);
        let got: Vec<_> = std::thread::scope(|s| {
            let asks: Vec<_> = (0..crate::serve::db::READERS)
                .map(|_| {
                    s.spawn(|| {
                        db.with_reader(|c| {
                            at_once.wait();
                            boards.get(c, &config, &clock, View::Truth, false)
                        })
                        .expect("board")
                    })
                })
                .collect();
            asks.into_iter()
                .map(|a| a.join().expect("a page"))
                .collect()
        });
        for b in &got[1..] {
            assert!(
                std::sync::Arc::ptr_eq(&got[0], b),
                "computed more than once"
            );
        }
        assert_eq!(*got[0], fresh());
    }
}
