//! `grundy judgehost`: judging for a `grundy serve` on another machine.
//! The host leases a submission from the server over HTTP, fetches the
//! problem's package by its content hash (kept in this host's cache, so a
//! problem is fetched once), judges it with its own sandbox exactly as
//! `grundy judge` does, and posts each test's result as it comes, then
//! the final one. While it judges it renews its lease; leases are timed
//! by the server's clock alone, so this machine's clock does not matter.
//!
//! A host that dies, or loses the network, stops renewing: the lease
//! expires and the server gives the submission to another host. A host
//! that cannot build a problem, or whose sandbox fails on it, gives the
//! lease back saying why (the server does not give it that problem
//! again). A package whose download fails (the network, a server error)
//! is no such reason: the host gives the lease back for now, waits (1 s,
//! then twice as long each time it fails again, at most a minute) and
//! tries again. A host refused by the server (another grundy version, a
//! token unknown or revoked) stops with the server's sentence.
//!
//! `client` speaks the protocol; `package` keeps packages in the cache.

mod client;
mod package;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use base64::Engine as _;

pub use client::Failed;
use client::Server;
use package::Missing;

use crate::judge::{self, Context, Event, Options, Prepared, Slots, SubmissionResult};
use crate::serve::hosts::wire::{Finish, Job, Refuse, Run};
use crate::verdict::Verdict;

/// How to run a host.
pub struct HostOptions {
    /// The server's address, `http://host:port/`.
    pub server: String,
    /// The host's token (from `grundy serve judgehost`).
    pub token: String,
    /// Submissions judged at once, each one test at a time.
    pub jobs: usize,
}

/// Why the host stopped.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The server refused this host, or cannot be reached at start (exit 2).
    #[error("{0}")]
    Refused(String),
    /// Something failed here (exit 3).
    #[error("{0}")]
    Internal(String),
}

/// The first wait after a package could not be fetched; each failure
/// after it doubles the wait, up to [`LAST_RETRY`].
const FIRST_RETRY: Duration = Duration::from_secs(1);
const LAST_RETRY: Duration = Duration::from_secs(60);

/// Hears one line per judging and per problem fetched.
pub type Say = Box<dyn FnMut(&str) + Send>;

/// What every judging thread shares.
struct Host {
    server: Server,
    ctx: Context,
    slots: Arc<Slots>,
    /// Prepared problems by package hash; an entry is an error when this
    /// host cannot build that package.
    prepared: Mutex<HashMap<String, Arc<Result<Prepared, String>>>>,
    stop: Arc<AtomicBool>,
    /// Set when the server refused this host: every thread stops.
    refused: Mutex<Option<String>>,
    say: Mutex<Say>,
}

/// Judges for the server until `stop` is set or the server refuses this
/// host. `say` hears one line per judging and per problem fetched.
pub fn run(
    ctx: Context,
    opts: HostOptions,
    stop: Arc<AtomicBool>,
    say: Say,
) -> Result<(), HostError> {
    let server = Server::new(&opts.server, &opts.token);
    let hello = server.hello().map_err(|e| match e {
        Failed::Refused(why) => HostError::Refused(why),
        Failed::Again(why) => HostError::Refused(format!(
            "cannot reach the server at {}: {why} (check --server)",
            opts.server
        )),
    })?;
    let host = Arc::new(Host {
        server,
        ctx,
        slots: Arc::new(Slots::new(opts.jobs.max(1))),
        prepared: Mutex::new(HashMap::new()),
        stop,
        refused: Mutex::new(None),
        say: Mutex::new(say),
    });
    host.tell(&format!(
        "judging for {} as `{}` (grundy {}, leases of {} s by the server's clock)",
        opts.server,
        hello.host,
        hello.server_version,
        hello.lease_ms / 1000
    ));
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1) {
            let h = Arc::clone(&host);
            s.spawn(move || h.work());
        }
    });
    match host
        .refused
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        Some(why) => Err(HostError::Refused(why)),
        None => Ok(()),
    }
}

impl Host {
    fn tell(&self, line: &str) {
        (self.say.lock().unwrap_or_else(PoisonError::into_inner))(line);
    }

    fn done(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Stops every thread: the server refused this host.
    fn refused(&self, why: String) {
        *self.refused.lock().unwrap_or_else(PoisonError::into_inner) = Some(why);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Waits up to `d`, or less when stopped.
    fn pause(&self, d: Duration) {
        let until = Instant::now() + d;
        while !self.done() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn work(&self) {
        let mut quiet = Duration::from_millis(250);
        let mut backoff = FIRST_RETRY;
        while !self.done() {
            match self.server.lease() {
                Ok(Some(job)) => {
                    quiet = Duration::from_millis(250);
                    match self.judge_job(&job) {
                        Err(Failed::Refused(why)) => self.refused(why),
                        Ok(Some(why)) => {
                            self.tell(&format!(
                                "submission {}: {why}; lease given back, trying again in {} s",
                                job.submission,
                                backoff.as_secs()
                            ));
                            self.pause(backoff);
                            backoff = (backoff * 2).min(LAST_RETRY);
                        }
                        Ok(None) | Err(Failed::Again(_)) => backoff = FIRST_RETRY,
                    }
                }
                // Nothing queued: look again soon, less often while idle.
                Ok(None) => {
                    self.pause(quiet);
                    quiet = (quiet * 2).min(Duration::from_secs(2));
                }
                Err(Failed::Refused(why)) => self.refused(why),
                Err(Failed::Again(why)) => {
                    self.tell(&format!("cannot lease: {why}; trying again"));
                    self.pause(Duration::from_secs(2));
                }
            }
        }
    }

    /// The problem of a package, prepared once per package (a package
    /// that could not be fetched is not remembered: it is fetched again).
    /// `Failed::Again`: the package could not be fetched this time.
    fn problem(&self, job: &Job) -> Result<Arc<Result<Prepared, String>>, Failed> {
        if let Some(p) = self
            .prepared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&job.package)
        {
            return Ok(Arc::clone(p));
        }
        let made = match package::folder(&self.server, &self.ctx, &job.package) {
            Err(Missing::Unusable(why)) => Err(format!("cannot use the problem's package: {why}")),
            Err(Missing::Later(why)) => return Err(Failed::Again(why)),
            Err(Missing::Refused(why)) => return Err(Failed::Refused(why)),
            Ok(dir) => self.build(&dir, &job.problem),
        };
        let made = Arc::new(made);
        self.prepared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(job.package.clone(), Arc::clone(&made));
        Ok(made)
    }

    fn build(&self, dir: &Path, id: &str) -> Result<Prepared, String> {
        if crate::serve::hosts::bad_name(id).is_some() {
            return Err(format!("`{id}` is not a problem's id"));
        }
        let spec = dir
            .join("problems")
            .join(id)
            .join(crate::problem::SPEC_FILE);
        let problem =
            crate::problem::load(&spec).map_err(|e| format!("cannot read problem `{id}`: {e}"))?;
        if problem.id != id {
            return Err(format!(
                "the package of `{id}` holds the problem `{}`",
                problem.id
            ));
        }
        self.tell(&format!("preparing {id} (tests and reference answers)"));
        judge::prepare(&problem, &self.ctx)
            .map_err(|e| format!("cannot build problem `{id}` here: {}", e.message()))
    }

    /// Judges one leased submission and posts its result, or gives the
    /// lease back saying why it cannot. `Some(why)`: given back for now
    /// (the package could not be fetched), to try again later.
    fn judge_job(&self, job: &Job) -> Result<Option<String>, Failed> {
        let prepared = match self.problem(job) {
            Ok(p) => p,
            Err(Failed::Refused(why)) => return Err(Failed::Refused(why)),
            Err(Failed::Again(why)) => {
                // The lease runs out by itself if this fails too.
                if let Err(Failed::Refused(why)) = self.server.release(&job.lease) {
                    return Err(Failed::Refused(why));
                }
                return Ok(Some(format!("cannot fetch the problem's package: {why}")));
            }
        };
        let refuse = |reason: String| {
            self.tell(&format!(
                "submission {}: not judged here: {reason}",
                job.submission
            ));
            self.server
                .refuse(&Refuse {
                    lease: job.lease.clone(),
                    reason,
                })
                .map(|_| None)
        };
        let prepared = match prepared.as_ref() {
            Ok(p) => p,
            Err(why) => return refuse(why.clone()),
        };
        let source = match base64::engine::general_purpose::STANDARD.decode(&job.source) {
            Ok(s) => s,
            Err(e) => return refuse(format!("the source is not base64: {e}")),
        };
        let scratch = match self.ctx.cache.scratch() {
            Ok(s) => s,
            Err(e) => return refuse(format!("cannot make a folder to judge in: {e}")),
        };
        let path = scratch
            .path()
            .join(crate::serve::workers::disk_name(&job.file_name));
        if let Err(e) = std::fs::write(&path, &source) {
            return refuse(format!("cannot write the source: {e}"));
        }
        let Some(judged) = self.judge(job, prepared, &path)? else {
            return Ok(None); // the lease was lost, or the host stops
        };
        let (result, first_fail) = match judged {
            Ok(done) => done,
            // The sandbox or the machine failed, not the submission: the
            // submission goes to another host.
            Err(why) => return refuse(why),
        };
        let verdict = result.verdict;
        let mut finish = Finish {
            lease: job.lease.clone(),
            result,
            first_fail_input: first_fail,
        };
        finish.result.submission = job.file_name.clone();
        // Posted again after a network failure: the server stores it once.
        for attempt in 0..5 {
            match self.server.finish(&finish) {
                Ok(ack) => {
                    self.tell(&format!(
                        "submission {}: {} ({})",
                        job.submission,
                        verdict.code(),
                        if ack.stored {
                            "stored"
                        } else {
                            "not stored: the lease was lost"
                        }
                    ));
                    return Ok(None);
                }
                Err(Failed::Again(why)) if attempt < 4 => {
                    self.tell(&format!("cannot post a result: {why}; trying again"));
                    self.pause(Duration::from_secs(1 << attempt));
                }
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// Runs the judge, posting each test and renewing the lease; `None`
    /// when the lease was lost or the host stops; `Err` when the judge
    /// itself failed here.
    #[allow(clippy::type_complexity)]
    fn judge(
        &self,
        job: &Job,
        prepared: &Prepared,
        path: &Path,
    ) -> Result<Option<Result<(SubmissionResult, Option<String>), String>>, Failed> {
        let cancel = Arc::new(AtomicBool::new(false));
        let finished = AtomicBool::new(false);
        let refused: Mutex<Option<Failed>> = Mutex::new(None);
        let options = Options {
            jobs: 1,
            language: Some(job.language.clone()),
            cancel: Some(Arc::clone(&cancel)),
            slots: Some(Arc::clone(&self.slots)),
            fail_fast: job.first_failure_ends,
            ..Options::default()
        };
        let lose = |e: Failed| {
            if let Failed::Refused(_) = e {
                *refused.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
            }
            cancel.store(true, Ordering::SeqCst);
        };
        let judged = std::thread::scope(|s| {
            // Renews the lease every sixth of its length, by this
            // machine's monotonic clock (never its calendar).
            s.spawn(|| {
                let step = Duration::from_millis((job.lease_ms / 6).max(500) as u64);
                let mut last = Instant::now();
                while !finished.load(Ordering::SeqCst) && !cancel.load(Ordering::SeqCst) {
                    if self.done() {
                        cancel.store(true, Ordering::SeqCst);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                    if last.elapsed() >= step {
                        last = Instant::now();
                        match self.server.renew(&job.lease) {
                            Ok(ack) if !ack.held => lose(Failed::Again("lost".into())),
                            Ok(_) | Err(Failed::Again(_)) => {}
                            Err(e) => lose(e),
                        }
                    }
                }
            });
            let mut ordinal = 0;
            let judged = judge::judge(prepared, &self.ctx, path, &options, &mut |e| {
                if let Event::Test { result, .. } = e {
                    ordinal += 1;
                    let run = Run {
                        lease: job.lease.clone(),
                        ordinal,
                        result: (*result).clone(),
                    };
                    match self.server.run(&run) {
                        Ok(ack) if !ack.held => lose(Failed::Again("lost".into())),
                        Ok(_) | Err(Failed::Again(_)) => {}
                        Err(e) => lose(e),
                    }
                }
            });
            finished.store(true, Ordering::SeqCst);
            judged
        });
        if let Some(e) = refused
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            return Err(e);
        }
        if cancel.load(Ordering::SeqCst) {
            self.tell(&format!(
                "submission {}: the lease was lost; dropped",
                job.submission
            ));
            return Ok(None);
        }
        Ok(Some(match judged {
            Ok(result) => match &result.internal_error {
                Some(why) => Err(format!("the judge failed here: {why}")),
                None => {
                    let first_fail = result
                        .tests
                        .iter()
                        .find(|t| t.verdict != Verdict::AC)
                        .and_then(|t| prepared.tests.iter().find(|p| p.name == t.name))
                        .map(|t| crate::batch::engine::quote_input(&t.input));
                    Ok((result, first_fail))
                }
            },
            Err(e) => Err(format!("the judge failed here: {}", e.message())),
        }))
    }
}
