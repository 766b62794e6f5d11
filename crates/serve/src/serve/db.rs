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
    readers: Mutex<Readers>,
    /// Rung when a reading connection is handed back.
    returned: Condvar,
    /// Async reads and writes wait here, not on a thread each.
    reading: tokio::sync::Semaphore,
    writing: tokio::sync::Semaphore,
}

/// The reading connections: those idle, and how many are open.
#[derive(Default)]
struct Readers {
    idle: Vec<Connection>,
    open: usize,
}

/// A reading connection lent out; handed back when dropped (even when
/// the read panicked), or forgotten when it failed to open.
struct Lent<'a> {
    inner: &'a Inner,
    c: Option<Connection>,
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        let mut r = self.inner.lock_readers();
        match self.c.take() {
            Some(c) => r.idle.push(c),
            None => r.open -= 1,
        }
        drop(r);
        self.inner.returned.notify_one();
    }
}

impl Inner {
    fn lock_readers(&self) -> MutexGuard<'_, Readers> {
        self.readers.lock().unwrap_or_else(PoisonError::into_inner)
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
                reading: tokio::sync::Semaphore::new(READERS),
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
            if let Some(c) = r.idle.pop() {
                break Lent { inner, c: Some(c) };
            }
            if r.open < READERS {
                r.open += 1;
                break Lent { inner, c: None };
            }
            r = inner
                .returned
                .wait(r)
                .unwrap_or_else(PoisonError::into_inner);
        };
        drop(r);
        if lent.c.is_none() {
            // Opened outside the lock; a failure gives the place back.
            lent.c = Some(open_connection(&inner.path)?);
        }
        match &lent.c {
            Some(c) => f(c),
            None => unreachable!("a lent connection is open"),
        }
    }

    /// The reading connections open now (at most [`READERS`]).
    pub fn readers_open(&self) -> usize {
        self.inner.lock_readers().open
    }

    /// [`Db::with_reader`] off the async threads; waits its turn without
    /// holding a thread.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        let _turn = self.inner.reading.acquire().await;
        let db = self.clone();
        tokio::task::spawn_blocking(move || db.with_reader(f))
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
                        db.read(move |c| {
                            // Long enough that the reads overlap.
                            std::thread::sleep(Duration::from_millis(5));
                            c.query_row("SELECT ?1", [i], |r| r.get::<_, i64>(0))
                                .what("select")
                        })
                        .await
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
        assert!(db.readers_open() <= READERS);
    }
}
