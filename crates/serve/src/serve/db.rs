//! The embedded database: one SQLite file (WAL mode, so that pages read
//! while a judging is written), its migrations, and a few connections
//! shared by the web handlers and the judge workers.
//!
//! SQLite is embedded (rusqlite's `bundled` build): nothing to install or
//! run beside grundy, and a contest is one file to copy or archive.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use super::schema::MIGRATIONS;

/// A database failure, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("{what}: {source}")]
pub struct DbError {
    pub what: String,
    #[source]
    pub source: rusqlite::Error,
}

pub type DbResult<T> = Result<T, DbError>;

/// Attaches what was being done to a rusqlite error.
pub trait Context<T> {
    fn what(self, what: &str) -> DbResult<T>;
}

impl<T> Context<T> for rusqlite::Result<T> {
    fn what(self, what: &str) -> DbResult<T> {
        self.map_err(|source| DbError {
            what: what.to_string(),
            source,
        })
    }
}

/// How long a writer waits for another before giving up.
const BUSY: Duration = Duration::from_secs(10);

/// How many prepared statements a connection keeps. A request's queries
/// are prepared once per connection and kept: parsing and planning them
/// again for each request was the largest part of the server's own CPU
/// time under a crowd. The pages and the judging use a few dozen.
const STATEMENTS: usize = 128;

/// Opens (creating when missing) and migrates the database at `path`.
pub fn open_connection(path: &Path) -> DbResult<Connection> {
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .what(&format!("cannot open the database {}", path.display()))?;
    c.busy_timeout(BUSY).what("cannot set the busy timeout")?;
    c.set_prepared_statement_cache_capacity(STATEMENTS);
    // WAL: readers never wait for the writer. NORMAL: a commit survives
    // the server being killed (the WAL is in the kernel's page cache), only
    // a power loss may take the last commits.
    let mode: String = c
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .what("cannot switch the database to WAL mode")?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(DbError {
            what: format!("{}: the database stays in {mode} mode", path.display()),
            source: rusqlite::Error::InvalidQuery,
        });
    }
    c.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
        .what("cannot set the database's pragmas")?;
    Ok(c)
}

/// Brings the schema to the latest version, in one transaction per step.
pub fn migrate(c: &mut Connection) -> DbResult<()> {
    let version: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .what("cannot read the schema version")?;
    let latest = MIGRATIONS.len() as i64;
    if version > latest {
        return Err(DbError {
            what: format!(
                "the database has schema version {version}, newer than this grundy's {latest}: use a newer grundy"
            ),
            source: rusqlite::Error::InvalidQuery,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = c.transaction().what("cannot start a migration")?;
        tx.execute_batch(sql)
            .what(&format!("migration {} failed", i + 1))?;
        tx.pragma_update(None, "user_version", i as i64 + 1)
            .what("cannot record the schema version")?;
        tx.commit().what("cannot commit a migration")?;
    }
    Ok(())
}

/// Reading connections: at most this many are open, and as many reads
/// run at once; the others wait their turn. Reads are short and the
/// machine has few cores: more would not read faster, and under a crowd
/// of requests each new connection (its own cache of pages, a thread to
/// run it) cost memory and time without bound.
pub const READERS: usize = 4;

/// The database shared by the server's threads: one writer (SQLite allows
/// one at a time anyway) and a few readers.
#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    writer: Mutex<Connection>,
    /// The reading connections of threads (the judge workers'), lent as
    /// they wait their turn.
    readers: Mutex<Readers>,
    /// Rung when a thread's reading connection is handed back.
    returned: Condvar,
    /// The reading connections of async reads, one per turn of `reading`:
    /// a read that holds its turn finds one idle or opens it, never waits.
    tasks: Mutex<Readers>,
    /// Async reads and writes wait here, not on a thread each.
    reading: Arc<tokio::sync::Semaphore>,
    writing: tokio::sync::Semaphore,
}

/// Reading connections: those idle, and how many are open.
#[derive(Default)]
struct Readers {
    idle: Vec<Connection>,
    open: usize,
}

/// A reading connection lent out; handed back when dropped (even when
/// the read panicked), or forgotten when it failed to open.
struct Lent<'a> {
    pool: &'a Mutex<Readers>,
    /// Rung when handed back, for those waiting for a connection.
    returned: Option<&'a Condvar>,
    c: Option<Connection>,
}

impl Lent<'_> {
    /// Opens the connection of a place taken in the pool (outside its
    /// lock); a failure gives the place back.
    fn open_if_new(&mut self, path: &Path) -> DbResult<()> {
        if self.c.is_none() {
            self.c = Some(open_connection(path)?);
        }
        Ok(())
    }

    fn connection(&self) -> &Connection {
        match &self.c {
            Some(c) => c,
            None => unreachable!("a lent connection is open"),
        }
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        let mut r = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
        match self.c.take() {
            Some(c) => r.idle.push(c),
            None => r.open -= 1,
        }
        drop(r);
        if let Some(returned) = self.returned {
            returned.notify_one();
        }
    }
}

impl Inner {
    fn lock_readers(&self) -> MutexGuard<'_, Readers> {
        self.readers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock_tasks(&self) -> MutexGuard<'_, Readers> {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Db {
    pub fn open(path: &Path) -> DbResult<Db> {
        let mut writer = open_connection(path)?;
        migrate(&mut writer)?;
        Ok(Db {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                writer: Mutex::new(writer),
                readers: Mutex::new(Readers::default()),
                returned: Condvar::new(),
                tasks: Mutex::new(Readers::default()),
                reading: Arc::new(tokio::sync::Semaphore::new(READERS)),
                writing: tokio::sync::Semaphore::new(1),
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `f` with the writing connection (blocking: call it from a
    /// worker thread or through [`Db::write`]).
    pub fn with_writer<T>(&self, f: impl FnOnce(&mut Connection) -> DbResult<T>) -> DbResult<T> {
        let mut c = self
            .inner
            .writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        f(&mut c)
    }

    /// Runs `f` with a reading connection (blocking: waits for one when
    /// [`READERS`] are in use).
    pub fn with_reader<T>(&self, f: impl FnOnce(&Connection) -> DbResult<T>) -> DbResult<T> {
        let inner = &*self.inner;
        let mut r = inner.lock_readers();
        let mut lent = loop {
            let lent = |c| Lent {
                pool: &inner.readers,
                returned: Some(&inner.returned),
                c,
            };
            if let Some(c) = r.idle.pop() {
                break lent(Some(c));
            }
            if r.open < READERS {
                r.open += 1;
                break lent(None);
            }
            r = inner
                .returned
                .wait(r)
                .unwrap_or_else(PoisonError::into_inner);
        };
        drop(r);
        lent.open_if_new(&inner.path)?;
        f(lent.connection())
    }

    /// The reading connections open now: at most [`READERS`] for threads
    /// and as many for async reads.
    pub fn readers_open(&self) -> usize {
        self.inner.lock_readers().open + self.inner.lock_tasks().open
    }

    /// Runs `f` with an async read's connection: call it holding a turn
    /// of `reading`, so that one is idle or may be opened.
    fn with_task_reader<T>(&self, f: impl FnOnce(&Connection) -> DbResult<T>) -> DbResult<T> {
        let inner = &*self.inner;
        let mut r = inner.lock_tasks();
        let mut lent = Lent {
            pool: &inner.tasks,
            returned: None,
            c: r.idle.pop(),
        };
        if lent.c.is_none() {
            r.open += 1;
        }
        drop(r);
        lent.open_if_new(&inner.path)?;
        f(lent.connection())
    }

    /// A short read (a few rows found by index: a session, a submission,
    /// a team's list) run right here, on the async thread that asked.
    /// Handing it to another thread and back, as [`Db::read`] does, cost
    /// more than the read itself: under a crowd of requests, waking the
    /// blocking pool's threads for each query was a large part of the web
    /// side's CPU time. A read in WAL mode never waits for the writer,
    /// so it holds the async thread only for its own work; a read that may
    /// take long (a scoreboard computed, an export) goes through
    /// [`Db::read`], so that requests behind it are not held up.
    pub async fn read_short<T>(&self, f: impl FnOnce(&Connection) -> DbResult<T>) -> DbResult<T> {
        let _turn = self.inner.reading.acquire().await;
        self.with_task_reader(f)
    }

    /// A read off the async threads, for one that may take long; waits
    /// its turn without holding a thread.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        // The turn goes with the read: a request given up on (its client
        // gone) does not give it back before the read ends.
        let turn = Arc::clone(&self.inner.reading).acquire_owned().await;
        let db = self.clone();
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            db.with_task_reader(f)
        })
        .await
        .unwrap_or_else(|e| Err(joined(e)))
    }

    /// [`Db::with_writer`] off the async threads; waits its turn without
    /// holding a thread.
    pub async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        let _turn = self.inner.writing.acquire().await;
        let db = self.clone();
        tokio::task::spawn_blocking(move || db.with_writer(f))
            .await
            .unwrap_or_else(|e| Err(joined(e)))
    }

    /// A setting, if set.
    pub fn setting(c: &Connection, key: &str) -> DbResult<Option<String>> {
        c.prepare_cached("SELECT value FROM settings WHERE key = ?1")
            .and_then(|mut st| st.query_row([key], |r| r.get(0)))
            .optional()
            .what("cannot read a setting")
    }

    pub fn set_setting(c: &Connection, key: &str, value: &str) -> DbResult<()> {
        c.execute(
            "INSERT INTO settings (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )
        .what("cannot write a setting")?;
        Ok(())
    }

    pub fn delete_setting(c: &Connection, key: &str) -> DbResult<()> {
        c.execute("DELETE FROM settings WHERE key = ?1", [key])
            .what("cannot remove a setting")?;
        Ok(())
    }
}

fn joined(e: tokio::task::JoinError) -> DbError {
    DbError {
        what: format!("a database task failed: {e}"),
        source: rusqlite::Error::InvalidQuery,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_database_is_migrated_in_wal_mode_and_again_is_a_no_op() {
        let t = tempfile::tempdir().expect("tempdir");
        let path = t.path().join("c.sqlite");
        let db = Db::open(&path).expect("opens");
        let (version, mode): (i64, String) = db
            .with_reader(|c| {
                Ok((
                    c.query_row("PRAGMA user_version", [], |r| r.get(0))
                        .what("v")?,
                    c.query_row("PRAGMA journal_mode", [], |r| r.get(0))
                        .what("m")?,
                ))
            })
            .expect("reads");
        assert_eq!(version, MIGRATIONS.len() as i64);
        assert_eq!(mode, "wal");
        drop(db);
        Db::open(&path).expect("opens again");
    }

    /// A crowd of requests reading at once shares a few connections (each
    /// one more would cost its own cache of pages and a thread).
    #[test]
    fn a_crowd_of_reads_shares_a_few_connections_and_every_read_is_answered() {
        let t = tempfile::tempdir().expect("tempdir");
        let db = Db::open(&t.path().join("c.sqlite")).expect("opens");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let answers = runtime.block_on(async {
            let reads: Vec<_> = (0..64)
                .map(|i| {
                    let db = db.clone();
                    tokio::spawn(async move {
                        let read = move |c: &Connection| {
                            // Long enough that the reads overlap.
                            std::thread::sleep(Duration::from_millis(5));
                            c.query_row("SELECT ?1", [i], |r| r.get::<_, i64>(0))
                                .what("select")
                        };
                        // Short reads (here) and long ones (off the async
                        // threads) share the turns and connections.
                        if i % 2 == 0 {
                            db.read_short(read).await
                        } else {
                            db.read(read).await
                        }
                    })
                })
                .collect();
            let mut out = Vec::new();
            for r in reads {
                out.push(r.await.expect("joined").expect("read"));
            }
            out
        });
        assert_eq!(answers, (0..64).collect::<Vec<i64>>());
        assert!(
            (1..=READERS).contains(&db.readers_open()),
            "{} reading connections",
            db.readers_open()
        );
        // Blocking reads from threads wait their turn as well.
        std::thread::scope(|s| {
            for _ in 0..16 {
                s.spawn(|| {
                    db.with_reader(|c| {
                        std::thread::sleep(Duration::from_millis(5));
                        c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))
                            .what("select")
                    })
                    .expect("read")
                });
            }
        });
        // Threads read on connections of their own.
        assert!(db.readers_open() <= 2 * READERS);
    }

    /// A write held open holds no read up, short or long: in WAL mode
    /// readers never wait for the writer.
    #[test]
    fn reads_are_answered_while_a_write_is_held_open() {
        let t = tempfile::tempdir().expect("tempdir");
        let db = Db::open(&t.path().join("c.sqlite")).expect("opens");
        db.with_writer(|c| Db::set_setting(c, "k", "before"))
            .expect("write");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let (held_tx, held_rx) = std::sync::mpsc::channel();
        let (end_tx, end_rx) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|s| {
            let db = &db;
            let writer = s.spawn(move || {
                db.with_writer(|c| {
                    c.execute_batch("BEGIN IMMEDIATE").what("begin")?;
                    Db::set_setting(c, "k", "after")?;
                    held_tx.send(()).expect("tell");
                    // Until the reads below are answered.
                    let _ = end_rx.recv();
                    c.execute_batch("COMMIT").what("commit")
                })
            });
            held_rx.recv().expect("the write is held");
            let (short, long, write_waits) = runtime.block_on(async {
                let short = db.read_short(|c| Db::setting(c, "k")).await;
                let long = db.read(|c| Db::setting(c, "k")).await;
                // A write waits for the one held; it is not awaited here.
                let db2 = db.clone();
                let pending =
                    tokio::spawn(async move { db2.write(|c| Db::set_setting(c, "k2", "x")).await });
                (short, long, pending)
            });
            assert_eq!(short.expect("short read"), Some("before".to_string()));
            assert_eq!(long.expect("long read"), Some("before".to_string()));
            end_tx.send(()).expect("end the write");
            writer.join().expect("writer").expect("committed");
            runtime
                .block_on(write_waits)
                .expect("joined")
                .expect("the waiting write is done");
        });
        let now = runtime
            .block_on(db.read_short(|c| Db::setting(c, "k")))
            .expect("read");
        assert_eq!(now, Some("after".to_string()));
    }
}
