//! `grundy serve`: a live contest or class in a browser. Teams or students
//! sign in, read the statements, submit files, see their verdicts appear
//! as they are judged and the scoreboard move; the jury follows the
//! queue, reads every judging, rejudges, answers questions and freezes
//! the scoreboard; the organiser downloads `grade`'s gradebook.
//!
//! Everything lives in one SQLite file beside the contest file (`db`):
//! accounts, submissions with their bytes, judgings with every test's
//! result, clarifications, and an append-only event log in the shape of
//! the ICPC Contest API. Judging goes through a queue in that database
//! (`queue`), leased by the server's own workers (`workers`), which call
//! the judge exactly as `grundy judge` does.
//!
//! The modules: `config` (the contest file), `clock` (times), `schema` and
//! `db` (the database), `accounts`, `auth` and `throttle` (who may do
//! what), `queue` and `workers` (judging), `events` and `judgement` (the
//! log and the verdicts' names in it), `store` and `scoreboard` (what
//! pages read), `web` (the pages), `demo` (a contest to try it on),
//! `hosts` (judge hosts on other machines, leasing from the same queue).

pub mod accounts;
pub mod api;
pub mod auth;
pub mod awards;
pub mod clock;
pub mod config;
pub mod credentials;
pub mod db;
pub mod demo;
pub mod events;
pub mod homework;
pub mod hosts;
pub mod judgement;
pub mod place;
pub mod queue;
pub mod schema;
pub mod scoreboard;
pub mod store;
pub mod throttle;
pub mod web;
pub mod workers;

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::json;

use crate::judge::{Because, Context, JudgeError, Prepared, Slots};
use crate::language::Languages;
use crate::problem::{ProblemId, ProblemSet};
use clock::{Clock, Millis, TimeSpec};
use config::Config;
use db::{Db, DbError};

/// The setting that says the organiser has unfrozen the scoreboard.
pub const THAWED: &str = "thawed";
/// The setting that says (since when) the organiser has finalized the
/// results: no judging will change them.
pub const FINALIZED: &str = "finalized";
/// The setting that says the jury has paused judging.
pub const PAUSED: &str = "paused";

/// Why the server stopped or could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A bad contest file, problem or address (exit 2).
    #[error(transparent)]
    Usage(Because),
    /// The server itself failed (exit 3).
    #[error(transparent)]
    Internal(Because),
}

impl From<DbError> for ServeError {
    fn from(e: DbError) -> Self {
        ServeError::Internal(Because::cause(e))
    }
}

impl From<JudgeError> for ServeError {
    fn from(e: JudgeError) -> Self {
        match e {
            JudgeError::Problem(b) | JudgeError::Submission(b) | JudgeError::Usage(b) => {
                ServeError::Usage(b)
            }
            JudgeError::Io(b) => ServeError::Internal(b),
        }
    }
}

/// How to serve.
pub struct ServeOptions {
    pub config: Config,
    /// The database file (created when missing).
    pub db: PathBuf,
    pub bind: IpAddr,
    /// 0: any free port.
    pub port: u16,
    /// `--jobs`: test runs using a CPU at once; as many judging workers.
    pub jobs: usize,
    /// False: no judging in the server, only by judge hosts.
    pub local_judging: bool,
}

/// Told to the caller once the server listens.
pub struct Ready {
    pub url: String,
    /// The organiser's password, when this start made the account.
    pub admin_password: Option<String>,
    /// Judgings cut short by the last stop, queued again.
    pub requeued: usize,
}

/// The database file of a contest file by default: beside it, named after it.
pub fn default_db(config: &Path) -> PathBuf {
    let stem = config
        .file_stem()
        .map_or_else(|| "contest".into(), |s| s.to_string_lossy().into_owned());
    match config.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(format!("{stem}.sqlite")),
        _ => PathBuf::from(format!("{stem}.sqlite")),
    }
}

/// Serves until SIGINT or SIGTERM. `note` hears what is being prepared;
/// `ready` is told the address once the server listens.
pub fn serve(
    set: &ProblemSet,
    ctx: Context,
    opts: ServeOptions,
    note: &mut dyn FnMut(&str),
    ready: &mut dyn FnMut(&Ready),
) -> Result<(), ServeError> {
    let config = opts.config;
    let mut prepared: BTreeMap<ProblemId, Prepared> = BTreeMap::new();
    for p in &config.problems {
        let problem = match &p.path {
            Some(folder) => set.find(&folder.to_string_lossy()),
            None => set.find(p.id.as_str()),
        }
        .map_err(|e| {
            ServeError::Usage(Because::of(
                format!("{}: problems: `{}`", config.path.display(), p.id),
                e,
            ))
        })?;
        if problem.id != p.id {
            return Err(ServeError::Usage(Because::new(format!(
                "{}: problems: `{}` holds the problem `{}`: give it `id: {}`",
                config.path.display(),
                p.path
                    .as_deref()
                    .map_or_else(|| p.id.to_string(), |f| f.display().to_string()),
                problem.id,
                problem.id
            ))));
        }
        note(&format!("preparing {} (tests and reference answers)", p.id));
        prepared.insert(p.id.clone(), crate::judge::prepare(&problem, &ctx)?);
    }
    let db = Db::open(&opts.db)?;
    let requeued = db.with_writer(queue::requeue_local)?;
    let admin_password = db.with_writer(|c| setup_accounts(c, &config))?;
    let clock = db.with_writer(|c| resolve_clock(c, &config))?;
    let deadlines = db.with_writer(|c| {
        let mut out = Vec::new();
        for p in &config.problems {
            if let Some(spec) = &p.deadline {
                out.push((
                    p.id.to_string(),
                    resolve(c, &format!("deadline:{}", p.id), spec)?,
                ));
            }
        }
        Ok(out)
    })?;
    let work = work_folder(&opts.db);
    std::fs::create_dir_all(&work).map_err(|e| {
        ServeError::Internal(Because::of(format!("cannot create {}", work.display()), e))
    })?;
    for folder in [work.as_path(), opts.db.parent().unwrap_or(Path::new("."))] {
        let folder = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        ctx.sandbox.hide_folder(folder).map_err(|e| {
            ServeError::Internal(Because::of(
                format!("cannot hide {} from runs", folder.display()),
                e,
            ))
        })?;
    }
    // The table teams see: a package runs Python 3 with PyPy (see
    // `Context::languages_for`), so a contest of packages alone names that;
    // a problem whose table differs from it says so on its own.
    let languages =
        if !prepared.is_empty() && prepared.values().all(|r| r.problem.package.is_some()) {
            ctx.languages.for_problem(true)
        } else {
            ctx.languages.clone()
        };
    let problems = config
        .problems
        .iter()
        .filter_map(|p| prepared.get(&p.id).map(|r| (p, r)))
        .map(|(p, r)| web::ProblemView {
            runs_otherwise: runs_otherwise(
                &languages,
                &ctx.languages_for(&r.problem),
                config.languages.as_deref(),
            ),
            id: p.id.clone(),
            label: p.label.clone(),
            title: r.problem.title.clone(),
            limits: format!(
                "{:.3} s, {}",
                r.problem.limits.time.as_secs_f64(),
                r.problem.limits.memory
            )
            .replace(".000 s", " s"),
            statement: crate::export::statement_html(&r.problem).ok(),
            info: crate::batch::grade::problem_info(&r.problem),
            time_limit: r.problem.limits.time,
            tests: r.tests.len(),
        })
        .collect();
    let mut packages = BTreeMap::new();
    for (id, r) in &prepared {
        let p = hosts::package::pack(&r.problem.dir, id.as_str(), r.problem.reference.as_deref())
            .map_err(|e| {
            ServeError::Usage(Because::of(
                format!("cannot pack {} for judge hosts", r.problem.dir.display()),
                e,
            ))
        })?;
        packages.insert(id.clone(), p);
    }
    let hub = events::Hub::default();
    let wake = Arc::new(workers::Wake::default());
    let stop = Arc::new(AtomicBool::new(false));
    let judges = Arc::new(workers::Judges {
        db: db.clone(),
        hub: hub.clone(),
        ctx: Arc::new(ctx),
        problems: Arc::new(prepared),
        clock,
        work,
        wake: Arc::clone(&wake),
        stop: Arc::clone(&stop),
        slots: Arc::new(Slots::new(opts.jobs.max(1))),
        first_failure_ends: config.scoring == crate::batch::contest::score::Scoring::Icpc,
    });
    let app = Arc::new(web::App {
        db,
        hub,
        config,
        clock,
        problems,
        languages,
        throttle: throttle::Throttle::default(),
        credentials: credentials::Remembered::default(),
        wake: Arc::clone(&wake),
        deadlines,
        packages,
        boards: scoreboard::Boards::default(),
        tables: Default::default(),
    });
    // Named, to tell the web side's CPU time from the judge workers'
    // (`judge-N`) and the password checks' (`password-N`).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("web")
        .enable_all()
        .build()
        .map_err(|e| ServeError::Internal(Because::of("cannot start the web server", e)))?;
    let address = SocketAddr::new(opts.bind, opts.port);
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(address))
        .map_err(|e| {
            ServeError::Usage(Because::of(
                format!("cannot listen on {address} (choose another --port or --bind)"),
                e,
            ))
        })?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeError::Internal(Because::of("cannot read the listening address", e)))?;
    let threads = if opts.local_judging {
        workers::spawn(Arc::clone(&judges), opts.jobs)
    } else {
        Vec::new()
    };
    ready(&Ready {
        url: format!("http://{local}/"),
        admin_password,
        requeued,
    });
    let served = runtime.block_on(run(listener, app));
    stop.store(true, Ordering::SeqCst);
    wake.ring();
    for t in threads {
        let _ = t.join();
    }
    // Open event streams are not waited for.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served
}

/// Serves until a signal; then stops taking requests (open event streams
/// are cut after a short grace).
async fn run(listener: tokio::net::TcpListener, app: web::Shared) -> Result<(), ServeError> {
    let router = web::router(
        Arc::clone(&app),
        api::routes().merge(hosts::routes::routes()),
    );
    let (tx, rx) = tokio::sync::watch::channel(false);
    let server = axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        let mut rx = rx;
        let _ = rx.changed().await;
    });
    let signals = async {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .map_err(|e| ServeError::Internal(Because::of("cannot handle SIGTERM", e)))?;
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        Ok::<(), ServeError>(())
    };
    let server = server.into_future();
    tokio::pin!(server);
    tokio::select! {
        r = &mut server => {
            return r.map_err(|e| ServeError::Internal(Because::of("the web server failed", e)));
        }
        s = signals => { s?; }
    }
    let _ = tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(2), server).await;
    Ok(())
}

/// The folder where sources are written for judging, beside the database.
fn work_folder(db: &Path) -> PathBuf {
    let name = db
        .file_name()
        .map_or_else(|| "contest".into(), |n| n.to_string_lossy().into_owned());
    db.with_file_name(format!("{name}.work"))
}

/// Accounts for the people the contest file names (without a password
/// until `grundy serve accounts` gives one), and the organiser's account
/// when there is none: its new password is returned.
fn setup_accounts(c: &mut rusqlite::Connection, config: &Config) -> db::DbResult<Option<String>> {
    let tx = c.transaction().map_err(|source| DbError {
        what: "cannot start a transaction".into(),
        source,
    })?;
    for p in &config.people {
        let keep = accounts::by_login(&tx, &p.login)?;
        let role = keep.as_ref().map_or(accounts::Role::Team, |(a, _)| a.role);
        accounts::upsert(&tx, &p.login, &p.name, role, None)?;
    }
    let admins = accounts::all(&tx, accounts::Role::Admin)?;
    let password = if admins.is_empty() {
        let pw = accounts::new_password();
        accounts::upsert(
            &tx,
            "admin",
            "Organiser",
            accounts::Role::Admin,
            Some(&accounts::hash_password(&pw)),
        )?;
        Some(pw)
    } else {
        None
    };
    tx.commit().map_err(|source| DbError {
        what: "cannot save the accounts".into(),
        source,
    })?;
    Ok(password)
}

/// A time of the contest file, resolved: a relative one is resolved the
/// first time and kept (under `key`) while the file says the same.
fn resolve(c: &rusqlite::Connection, key: &str, spec: &TimeSpec) -> db::DbResult<Millis> {
    match spec {
        TimeSpec::At(m) => Ok(*m),
        TimeSpec::FromNow(offset) => {
            let key = format!("time:{key}");
            if let Some(v) = Db::setting(c, &key)?
                && let Some((text, ms)) = v.split_once('|')
                && text == spec.text()
                && let Ok(ms) = ms.parse::<i64>()
            {
                return Ok(Millis(ms));
            }
            let at = Millis(Millis::now().0 + offset);
            Db::set_setting(c, &key, &format!("{}|{}", spec.text(), at.0))?;
            Ok(at)
        }
    }
}

fn resolve_clock(c: &mut rusqlite::Connection, config: &Config) -> db::DbResult<Clock> {
    let start = resolve(c, "start", &config.start)?;
    let end = config.duration.map(|d| start.plus(d));
    let freeze = match (end, config.freeze) {
        (Some(e), Some(f)) => Some(e.minus(f)),
        _ => None,
    };
    let clock = Clock { start, end, freeze };
    if Db::setting(c, "state-logged")?.is_none() {
        events::log(
            c,
            events::Kind::State,
            "state",
            events::Op::Update,
            &state_json(&clock, None, None, Millis::now()),
        )?;
        Db::set_setting(c, "state-logged", "1")?;
    }
    Ok(clock)
}

/// The Contest API's `state` object at `now`. The updates end once the
/// results are finalized and, when the scoreboard was frozen, thawed.
pub fn state_json(
    clock: &Clock,
    thawed: Option<Millis>,
    finalized: Option<Millis>,
    now: Millis,
) -> serde_json::Value {
    let past = |m: Option<Millis>| m.filter(|m| *m <= now).map(|m| m.rfc3339());
    let end_of_updates = match (finalized, clock.freeze, thawed) {
        (Some(f), None, _) => Some(f),
        (Some(f), Some(_), Some(t)) => Some(Millis(f.0.max(t.0))),
        _ => None,
    };
    json!({
        "started": past(Some(clock.start)),
        "frozen": past(clock.freeze),
        "ended": past(clock.end),
        "thawed": thawed.map(|t| t.rfc3339()),
        "finalized": finalized.map(|t| t.rfc3339()),
        "end_of_updates": end_of_updates.map(|t| t.rfc3339()),
    })
}

/// The time a setting holds (`THAWED`, `FINALIZED`), if set.
pub fn setting_time(c: &rusqlite::Connection, key: &str) -> db::DbResult<Option<Millis>> {
    Ok(Db::setting(c, key)?
        .and_then(|v| v.parse::<i64>().ok())
        .map(Millis))
}

/// The names under which `own` (a problem's language table) runs a
/// language that `shown` (the contest's) names otherwise: a package's
/// "Python 3 (PyPy)" in a contest whose table says "Python 3". Only the
/// languages the contest allows (`allowed`, all when `None`).
fn runs_otherwise(shown: &Languages, own: &Languages, allowed: Option<&[String]>) -> Vec<String> {
    shown
        .table
        .iter()
        .filter(|l| allowed.is_none_or(|ids| ids.contains(&l.id)))
        .filter_map(|l| {
            let theirs = own.by_id(&l.id).ok()?;
            (theirs.name != l.name).then(|| theirs.name.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A package's table names Python 3 otherwise than the built-in one
    /// (PyPy, or CPython said to lack it); a contest that does not allow
    /// Python hears nothing of it.
    #[test]
    fn runs_otherwise_names_only_allowed_languages_that_differ() {
        let shown = Languages::default();
        let package = shown.for_problem(true);
        let named = runs_otherwise(&shown, &package, None);
        assert_eq!(named.len(), 1, "{named:?}");
        assert!(named[0].starts_with("Python 3 ("), "{named:?}");
        assert!(runs_otherwise(&shown, &package, Some(&["c".to_string()])).is_empty());
        assert!(runs_otherwise(&shown, &shown, None).is_empty());
    }
}
