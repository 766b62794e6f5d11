//! The server's own judges: `--jobs` threads that lease submissions from
//! the queue and judge them with the same call as `grundy judge`
//! ([`crate::judge::judge`], on the problem prepared once at start-up),
//! reporting each test as it comes and the result at the end.
//!
//! A judging stopped by the server's shutdown is not stored: its job stays
//! leased and is queued again when the server starts (`queue`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use rusqlite::OptionalExtension;

use super::clock::{Clock, Millis};
use super::db::{Context as _, Db, DbResult};
use super::events::{Hub, Notice};
use super::queue::{self, Lease};
use crate::judge::{self, Context, Event, Options, Prepared, Slots, SubmissionResult};
use crate::problem::ProblemId;
use crate::verdict::Verdict;

/// Wakes idle workers when a job is queued (they also look every second,
/// for leases that expired).
#[derive(Default)]
pub struct Wake {
    queued: Mutex<u64>,
    changed: Condvar,
}

impl Wake {
    pub fn ring(&self) {
        *self.queued.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        self.changed.notify_all();
    }

    fn wait(&self, seen: u64, most: Duration) -> u64 {
        let guard = self.queued.lock().unwrap_or_else(PoisonError::into_inner);
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, most, |n| *n == seen)
            .unwrap_or_else(PoisonError::into_inner);
        *guard
    }

    fn now(&self) -> u64 {
        *self.queued.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What every worker shares.
pub struct Judges {
    pub db: Db,
    pub hub: Hub,
    pub ctx: Arc<Context>,
    pub problems: Arc<BTreeMap<ProblemId, Prepared>>,
    pub clock: Clock,
    /// Sources are written here, one folder per judging (hidden from runs).
    pub work: PathBuf,
    pub wake: Arc<Wake>,
    pub stop: Arc<AtomicBool>,
    /// `--jobs`: the test runs using a CPU at once, over all workers.
    pub slots: Arc<Slots>,
    /// Stop at a submission's first failing test (ICPC scoring: the
    /// verdict is that test's, and the tests after it cannot change it).
    /// Otherwise a group's other tests are passed over after it fails,
    /// and every group is judged for its points.
    pub first_failure_ends: bool,
}

/// Starts `n` workers; they end when `stop` is set.
pub fn spawn(judges: Arc<Judges>, n: usize) -> Vec<std::thread::JoinHandle<()>> {
    (0..n.max(1))
        .map(|i| {
            let j = Arc::clone(&judges);
            let name = format!("{}{}-{i}", queue::LOCAL, std::process::id());
            std::thread::Builder::new()
                .name(format!("judge-{i}"))
                .spawn(move || j.work(&name))
                .unwrap_or_else(|e| panic!("cannot start a judge thread: {e}"))
        })
        .collect()
}

impl Judges {
    fn work(&self, host: &str) {
        while !self.stop.load(Ordering::SeqCst) {
            let seen = self.wake.now();
            // The jury may pause judging (the queue keeps filling).
            let paused = self
                .db
                .with_reader(|c| Db::setting(c, super::PAUSED))
                .is_ok_and(|p| p.is_some());
            if paused {
                self.wake.wait(seen, Duration::from_secs(1));
                continue;
            }
            let lease = self
                .db
                .with_writer(|c| queue::claim(c, host, self.clock.start, Millis::now()));
            match lease {
                Ok(Some(lease)) => self.judge_one(&lease),
                Ok(None) | Err(_) => {
                    // Nothing to do (or the database is busy): wait for a
                    // ring, or look again in a second.
                    self.wake.wait(seen, Duration::from_secs(1));
                }
            }
        }
    }

    fn judge_one(&self, lease: &Lease) {
        let outcome = self.judge_lease(lease);
        let folder = self.work.join(lease.judging.to_string());
        let _ = std::fs::remove_dir_all(&folder);
        if let Ok(Some((account, submitted))) = outcome {
            self.hub.tell(Notice::Submission {
                id: lease.submission,
                account,
            });
            let thawed = self
                .db
                .with_reader(|c| Db::setting(c, super::THAWED))
                .ok()
                .flatten()
                .is_some();
            self.hub.tell(Notice::Scoreboard {
                jury_only: self.clock.after_freeze(submitted) && !thawed,
            });
        }
    }

    /// Judges and stores; the team and the submission's time when stored.
    fn judge_lease(&self, lease: &Lease) -> DbResult<Option<(i64, Millis)>> {
        let sub = self.db.with_reader(|c| {
            c.query_row(
                "SELECT account_id, problem, language, file_name, source, time_ms FROM submissions WHERE id = ?1",
                [lease.submission],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, Vec<u8>>(4)?,
                        r.get::<_, i64>(5)?,
                    ))
                },
            )
            .optional()
            .what("cannot read a submission")
        })?;
        let Some((account, problem, language, file_name, source, time_ms)) = sub else {
            return Ok(None);
        };
        let problem = ProblemId(problem);
        let folder = self.work.join(lease.judging.to_string());
        let result = match self.problems.get(&problem) {
            None => Err(format!("problem `{problem}` is not served any more")),
            Some(prepared) => stage(&folder, &file_name, &source)
                .map_err(|e| format!("cannot write the source for judging: {e}"))
                .map(|path| self.run(lease, account, prepared, &path, &language)),
        };
        let (mut result, first_fail) = match result {
            Ok(Some(done)) => done,
            Ok(None) => return Ok(None), // stopped, or the lease was lost
            Err(why) => {
                let mut r = SubmissionResult::new(&file_name, &problem, &language);
                r.internal_error = Some(why.clone());
                r.compile.log = why;
                (r, None)
            }
        };
        // Reports name the file as the team sent it.
        result.submission = file_name;
        let stored = self.db.with_writer(|c| {
            queue::finish(c, lease, &result, first_fail.as_deref(), self.clock.start)
        })?;
        Ok(stored.then_some((account, Millis(time_ms))))
    }

    /// Runs the judge with the lease kept alive; `None` when stopped.
    fn run(
        &self,
        lease: &Lease,
        account: i64,
        prepared: &Prepared,
        path: &Path,
        language: &str,
    ) -> Option<(SubmissionResult, Option<String>)> {
        let done = AtomicBool::new(false);
        let lost = AtomicBool::new(false);
        let options = Options {
            jobs: 1,
            language: Some(language.to_string()),
            cancel: Some(Arc::clone(&self.stop)),
            slots: Some(Arc::clone(&self.slots)),
            fail_fast: self.first_failure_ends,
            ..Options::default()
        };
        let judged = std::thread::scope(|s| {
            s.spawn(|| self.keep(lease, &done, &lost));
            let mut ordinal = 0;
            let judged = judge::judge(prepared, &self.ctx, path, &options, &mut |e| {
                if let Event::Test { result, .. } = e {
                    ordinal += 1;
                    let ok = self.db.with_writer(|c| {
                        queue::record_run(c, lease, ordinal, result, self.clock.start)
                    });
                    if matches!(ok, Ok(false)) {
                        lost.store(true, Ordering::SeqCst);
                    }
                    self.hub.tell(Notice::Submission {
                        id: lease.submission,
                        account,
                    });
                }
            });
            done.store(true, Ordering::SeqCst);
            judged
        });
        if self.stop.load(Ordering::SeqCst) || lost.load(Ordering::SeqCst) {
            return None;
        }
        Some(match judged {
            Ok(result) => {
                let first_fail = result
                    .tests
                    .iter()
                    .find(|t| t.verdict != Verdict::AC)
                    .and_then(|t| prepared.tests.iter().find(|p| p.name == t.name))
                    .map(|t| crate::batch::engine::quote_input(&t.input));
                (result, first_fail)
            }
            Err(e) => {
                let mut r = SubmissionResult::new(
                    &path.display().to_string(),
                    &prepared.problem.id,
                    language,
                );
                r.internal_error = Some(e.message());
                r.compile.log = e.message();
                (r, None)
            }
        })
    }

    /// Renews the lease every few seconds until `done`.
    fn keep(&self, lease: &Lease, done: &AtomicBool, lost: &AtomicBool) {
        let step = Duration::from_millis((queue::LEASE_MS / 6) as u64);
        let mut last = std::time::Instant::now();
        while !done.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(200));
            if last.elapsed() >= step {
                last = std::time::Instant::now();
                if let Ok(false) = self
                    .db
                    .with_writer(|c| queue::renew(c, lease, Millis::now()))
                {
                    lost.store(true, Ordering::SeqCst);
                }
            }
        }
    }
}

/// Writes a submission's bytes under `folder` with its file name (whose
/// extension tells the language), made safe for the disk.
fn stage(folder: &Path, file_name: &str, source: &[u8]) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(folder)?;
    let path = folder.join(disk_name(file_name));
    std::fs::write(&path, source)?;
    Ok(path)
}

/// A file name with only letters, digits, `.`, `_` and `-` (others become
/// `_`), never hidden nor empty; the extension is kept.
pub fn disk_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let mut s: String = base
        .chars()
        .take(100)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        s.insert(0, 'x');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::disk_name;

    #[test]
    fn disk_names_are_plain() {
        assert_eq!(disk_name("a.c"), "a.c");
        assert_eq!(disk_name("../../etc/passwd"), "passwd");
        assert_eq!(disk_name("<img src=x>.py"), "_img_src_x_.py");
        assert_eq!(disk_name(".bashrc"), "x.bashrc");
        assert_eq!(disk_name(""), "x");
    }
}
