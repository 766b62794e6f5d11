//! A content-addressed store for compiled programs, test inputs and
//! reference answers.
//!
//! Entries are keyed by a hash of everything that determines them, written
//! to a temporary name and renamed into place, so that a crash or two
//! concurrent judges never leave a half-written entry behind.
//!
//! The cache is bounded (see [`Policy`]): each use of an entry sets its
//! modification time, and when a judge opens the cache, entries unused for
//! longer than the age limit go, then the least recently used ones until
//! the total is under the size limit. Several judges may share a cache, so
//! nothing may vanish under a judge that is using it: every judge holds a
//! shared `flock` on `lock` for as long as its cache is open, and entries
//! are evicted only under the exclusive lock, which a judge gets only when
//! no other judge has the cache open (otherwise it skips the trim; the next
//! judge to find the cache alone does it). An evicted entry is first renamed
//! out of its place, so a crash never leaves half an entry to be used.
//!
//! Whoever can change the cache decides verdicts, so the cache must be the
//! judge's alone (see `trust`): a cache folder that is not is refused, and
//! no link inside the cache is ever followed.

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use rustix::fs::{FlockOperation, Mode, OFlags};

use crate::units::Bytes;

mod trust;

pub use trust::NotOurs;

use sha2::{Digest, Sha256};

/// The hex SHA-256 of some parts, each length-prefixed so that
/// `("ab", "c")` and `("a", "bc")` differ.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub String);

impl Key {
    pub fn of(parts: &[&[u8]]) -> Key {
        let mut h = Sha256::new();
        for p in parts {
            h.update((p.len() as u64).to_le_bytes());
            h.update(p);
        }
        let digest = h.finalize();
        let mut s = String::with_capacity(64);
        for b in digest.iter() {
            s.push_str(&format!("{b:02x}"));
        }
        Key(s)
    }

    /// A short prefix, enough to tell entries apart in messages.
    pub fn short(&self) -> &str {
        &self.0[..12.min(self.0.len())]
    }
}

/// The cache folder.
#[derive(Debug, Clone)]
pub struct Cache {
    root: PathBuf,
    /// The shared lock on `lock`, held while any clone lives.
    _lock: Arc<OwnedFd>,
}

/// The folder inside the cache for work in progress; never an entry kind.
const TMP: &str = "tmp";
/// The lock file every judge using the cache holds (see the module doc).
const LOCK: &str = "lock";
/// How long opening the cache waits for another judge's trim or clear.
const LOCK_WAIT: Duration = Duration::from_secs(120);
/// How long a use of an entry is remembered before it is recorded again
/// (see [`Cache::touch_if_stale`]).
const TOUCH_AFTER: Duration = Duration::from_secs(600);
/// The file whose modification time is the last trim, and whose content is
/// the policy it applied (see [`Cache::open_trimmed`]).
const TRIMMED: &str = "trimmed";
/// How long after a trim the cache is trimmed again under the same policy.
const TRIM_EVERY: Duration = Duration::from_secs(600);

/// The bounds of the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Total bytes of the entries.
    pub max_size: Bytes,
    /// Entries unused for longer are removed.
    pub max_age: Duration,
}

impl Default for Policy {
    /// 1 GiB and 30 days: room for hundreds of compiled submissions and
    /// their answers; a program of a term ago is compiled again.
    fn default() -> Self {
        Policy {
            max_size: Bytes(1 << 30),
            max_age: Duration::from_secs(30 * 86_400),
        }
    }
}

/// Why the cache cannot be used as asked.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("{var}: `{value}` is not {expected}")]
    BadSetting {
        var: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("the cache {} is in use by another grundy; try again when it has finished", .0.display())]
    Busy(PathBuf),
    #[error("the cache {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    /// Someone else could change it (see `trust`).
    #[error(transparent)]
    NotOurs(#[from] NotOurs),
}

impl From<NotOurs> for io::Error {
    fn from(e: NotOurs) -> io::Error {
        io::Error::new(io::ErrorKind::PermissionDenied, e)
    }
}

impl Policy {
    /// The defaults, with `GRUNDY_CACHE_MAX_SIZE` (`2GiB`, `500MiB`) and
    /// `GRUNDY_CACHE_MAX_AGE` (days: `30`, `30d`) applied.
    pub fn from_env() -> Result<Policy, CacheError> {
        let mut p = Policy::default();
        if let Some(v) = std::env::var_os("GRUNDY_CACHE_MAX_SIZE") {
            let v = v.to_string_lossy().into_owned();
            p.max_size = crate::units::parse_bytes(&v).ok_or(CacheError::BadSetting {
                var: "GRUNDY_CACHE_MAX_SIZE",
                value: v,
                expected: "a size such as 2GiB or 500MiB",
            })?;
        }
        if let Some(v) = std::env::var_os("GRUNDY_CACHE_MAX_AGE") {
            let v = v.to_string_lossy().into_owned();
            let days = v.trim().trim_end_matches('d').trim().parse::<u64>();
            p.max_age = match days {
                Ok(d) if (1..=36_500).contains(&d) => Duration::from_secs(d * 86_400),
                _ => {
                    return Err(CacheError::BadSetting {
                        var: "GRUNDY_CACHE_MAX_AGE",
                        value: v,
                        expected: "a number of days such as 30 or 30d",
                    });
                }
            };
        }
        Ok(p)
    }
}

/// One entry: `kind/xx/rest` (a file or a folder).
#[derive(Debug, Clone)]
pub struct Entry {
    pub path: PathBuf,
    pub kind: String,
    pub size: u64,
    pub last_used: SystemTime,
}

/// What a trim removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trimmed {
    pub entries: usize,
    pub bytes: u64,
}

impl Cache {
    /// `$GRUNDY_CACHE`, else `$XDG_CACHE_HOME/grundy`, else `~/.cache/grundy`,
    /// else a folder under the system temporary directory.
    pub fn default_location() -> PathBuf {
        if let Some(p) = std::env::var_os("GRUNDY_CACHE") {
            return PathBuf::from(p);
        }
        if let Some(p) = std::env::var_os("XDG_CACHE_HOME") {
            return PathBuf::from(p).join("grundy");
        }
        if let Some(h) = std::env::var_os("HOME") {
            return PathBuf::from(h).join(".cache").join("grundy");
        }
        std::env::temp_dir().join("grundy-cache")
    }

    /// Opens the cache for use, holding it open (shared) against eviction.
    pub fn open(root: impl Into<PathBuf>) -> Result<Cache, CacheError> {
        let path: PathBuf = root.into();
        let (root, lock) = Self::prepare(path.clone())?;
        Self::shared(&lock).map_err(|source| CacheError::Io { path, source })?;
        Ok(Cache {
            root,
            _lock: Arc::new(lock),
        })
    }

    /// Opens the cache for use and, when no other judge has it open,
    /// bounds it by `policy` first; `None` when it was in use or needed no
    /// trim.
    ///
    /// A trim looks at every entry, which costs more than the rest of a
    /// small judging once the cache holds thousands of tests: so it is done
    /// only when the last one applied another policy or is older than
    /// [`TRIM_EVERY`]. Between two trims the cache can outgrow its bound
    /// by what ten minutes of judging add; a changed bound applies at once.
    pub fn open_trimmed(
        root: impl Into<PathBuf>,
        policy: &Policy,
    ) -> Result<(Cache, Option<Trimmed>), CacheError> {
        let path: PathBuf = root.into();
        let (root, lock) = Self::prepare(path.clone())?;
        let io = |source| CacheError::Io {
            path: path.clone(),
            source,
        };
        let due = trim_due(&root, policy, SystemTime::now());
        let trimmed = if due && Self::try_exclusive(&lock).map_err(io)? {
            let t = trim(&root, Some(policy), SystemTime::now());
            if t.is_ok() {
                // Best effort: without it the next judge trims again.
                let _ = crate::beneath::write(&root, TRIMMED, stamp(policy).as_bytes());
            }
            // Down to shared: others may open it again.
            rustix::fs::flock(&lock, FlockOperation::LockShared).map_err(|e| io(e.into()))?;
            Some(t?)
        } else {
            Self::shared(&lock).map_err(io)?;
            None
        };
        Ok((
            Cache {
                root,
                _lock: Arc::new(lock),
            },
            trimmed,
        ))
    }

    /// Removes every entry, when no other judge has the cache open.
    pub fn clear(root: impl Into<PathBuf>) -> Result<Trimmed, CacheError> {
        let path: PathBuf = root.into();
        let io = |source| CacheError::Io {
            path: path.clone(),
            source,
        };
        let (root, lock) = Self::prepare(path.clone())?;
        if !Self::try_exclusive(&lock).map_err(io)? {
            return Err(CacheError::Busy(root));
        }
        let _ = crate::beneath::remove_file(&root, TRIMMED);
        trim(&root, None, SystemTime::now())
    }

    /// The entries, for `grundy cache show` (no lock: a listing only).
    pub fn entries(root: &Path) -> Result<Vec<Entry>, CacheError> {
        let root = std::path::absolute(root).map_err(|source| CacheError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        if fs::symlink_metadata(&root).is_err() {
            return Ok(Vec::new());
        }
        trust::check_root(&root)?;
        entries(&root)
    }

    /// Makes (mode 0700) or checks the cache folder `root`, its `tmp` and
    /// its lock, and opens the lock.
    fn prepare(root: PathBuf) -> Result<(PathBuf, OwnedFd), CacheError> {
        // Absolute, because programs in the cache run in other folders.
        let root = std::path::absolute(&root).map_err(|source| CacheError::Io {
            path: root.clone(),
            source,
        })?;
        let io = |source| CacheError::Io {
            path: root.clone(),
            source,
        };
        if let Some(parent) = root.parent() {
            fs::create_dir_all(parent).map_err(io)?;
        }
        {
            use std::os::unix::fs::DirBuilderExt;
            match fs::DirBuilder::new().mode(trust::ROOT_MODE).create(&root) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io(e)),
            }
        }
        trust::check_root(&root)?;
        // Ours alone: nobody else reaches anything in it (runs see `bin`
        // and `tmp` through the sandbox's mount view). Changed only when it
        // differs: a `chmod` that changes nothing still writes the inode's
        // change time, a journal write on every judging's start.
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::symlink_metadata(&root)
            .map_err(io)?
            .permissions()
            .mode()
            & 0o7777;
        if mode != trust::ROOT_MODE {
            fs::set_permissions(&root, fs::Permissions::from_mode(trust::ROOT_MODE)).map_err(io)?;
        }
        trust::make_folder(&root, &root.join(TMP))?;
        let lock = rustix::fs::open(
            root.join(LOCK),
            OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )
        .map_err(|e| io(e.into()))?;
        let lock_meta = fs::File::from(lock.try_clone().map_err(io)?)
            .metadata()
            .map_err(io)?;
        trust::check_meta(&root, &root.join(LOCK), &lock_meta, false)?;
        Ok((root, lock))
    }

    fn try_exclusive(lock: &OwnedFd) -> io::Result<bool> {
        match rustix::fs::flock(lock, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(true),
            Err(rustix::io::Errno::WOULDBLOCK) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Takes the shared lock, waiting (boundedly) for a trim or a clear.
    fn shared(lock: &OwnedFd) -> io::Result<()> {
        let start = std::time::Instant::now();
        loop {
            match rustix::fs::flock(lock, FlockOperation::NonBlockingLockShared) {
                Ok(()) => return Ok(()),
                Err(rustix::io::Errno::WOULDBLOCK) if start.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(rustix::io::Errno::WOULDBLOCK) => {
                    return Err(io::Error::other(
                        "another process has held the cache's lock for minutes",
                    ));
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Records a use of the entry at `path` (its modification time), so
    /// that eviction takes the least recently used first. Best effort.
    pub fn touch(&self, path: &Path) {
        if let Ok(f) = fs::File::open(path) {
            let _ = f.set_modified(SystemTime::now());
        }
    }

    /// [`Cache::touch`] unless the entry was used within the last
    /// [`TOUCH_AFTER`]: a judging looks up every test's input and answer,
    /// and eviction by age needs no finer clock than that, so a warm
    /// judging does not pay an open and a time update per file.
    fn touch_if_stale(&self, path: &Path, meta: &fs::Metadata) {
        let stale = meta
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > TOUCH_AFTER);
        if stale {
            self.touch(path);
        }
    }

    /// `kind/key` if it is there (and then marked as used). What is there
    /// is used only if it is the judge's alone (see `trust`).
    pub fn existing_file(&self, kind: &str, key: &Key, suffix: &str) -> Option<PathBuf> {
        let p = self.path(kind, key, suffix);
        let meta = fs::symlink_metadata(&p).ok()?;
        self.check_way(kind, key).ok()?;
        trust::check_meta(&self.root, &p, &meta, false).ok()?;
        self.touch_if_stale(&p, &meta);
        Some(p)
    }

    /// Checks (making them if they are missing) the folders `kind` and
    /// its shard for `key`: each the judge's alone, no link.
    fn check_way(&self, kind: &str, key: &Key) -> Result<(), NotOurs> {
        let kind_dir = self.root.join(kind);
        trust::make_folder(&self.root, &kind_dir)?;
        trust::make_folder(&self.root, &kind_dir.join(&key.0[..2]))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the entry `key` of `kind` lives (it may not exist yet).
    pub fn path(&self, kind: &str, key: &Key, suffix: &str) -> PathBuf {
        self.root
            .join(kind)
            .join(&key.0[..2])
            .join(format!("{}{suffix}", &key.0[2..]))
    }

    /// A fresh private folder for work in progress, inside the cache so
    /// that the final rename stays on one file system.
    pub fn scratch(&self) -> io::Result<tempfile::TempDir> {
        tempfile::Builder::new()
            .prefix("work-")
            .tempdir_in(self.root.join(TMP))
    }

    /// Stores `bytes` under `kind/key` unless already there; returns its path.
    pub fn put_file(
        &self,
        kind: &str,
        key: &Key,
        suffix: &str,
        bytes: &[u8],
    ) -> io::Result<PathBuf> {
        let dest = self.path(kind, key, suffix);
        self.check_way(kind, key)?;
        if let Ok(meta) = fs::symlink_metadata(&dest) {
            trust::check_meta(&self.root, &dest, &meta, false)?;
            self.touch_if_stale(&dest, &meta);
            return Ok(dest);
        }
        let mut tmp = tempfile::NamedTempFile::new_in(self.root.join(TMP))?;
        io::Write::write_all(&mut tmp, bytes)?;
        tmp.persist(&dest).map_err(|e| e.error)?;
        Ok(dest)
    }

    /// Returns the folder `kind/key`, filling it with `fill` first if it
    /// does not exist. `fill` works in a scratch folder that is renamed into
    /// place only when it succeeds.
    pub fn dir_or_fill<E>(
        &self,
        kind: &str,
        key: &Key,
        fill: impl FnOnce(&Path) -> Result<(), E>,
    ) -> Result<PathBuf, E>
    where
        E: From<io::Error>,
    {
        let dest = self.path(kind, key, "");
        self.check_way(kind, key).map_err(io::Error::from)?;
        if let Ok(meta) = fs::symlink_metadata(&dest) {
            trust::check_meta(&self.root, &dest, &meta, true).map_err(io::Error::from)?;
            self.touch_if_stale(&dest, &meta);
            return Ok(dest);
        }
        let work = self.scratch()?;
        fill(work.path())?;
        // What the fill made (a compiler's products, a package's copy)
        // carries no setuid bit and no write bit for others.
        trust::seal(work.path())?;
        let staged = work.keep();
        if let Err(e) = fs::rename(&staged, &dest) {
            let _ = crate::beneath::remove_tree(&staged);
            // Another judge filled the same entry first: theirs is as good.
            let theirs = fs::symlink_metadata(&dest)
                .ok()
                .filter(|m| trust::check_meta(&self.root, &dest, m, true).is_ok());
            if theirs.is_none() {
                return Err(e.into());
            }
        }
        Ok(dest)
    }
}

/// What the [`TRIMMED`] file says of a trim under `policy`.
fn stamp(policy: &Policy) -> String {
    format!(
        "max_size {}\nmax_age {}\n",
        policy.max_size.0,
        policy.max_age.as_secs()
    )
}

/// Whether the cache at `root` is to be trimmed under `policy` at `now`:
/// the last trim applied another policy, is older than [`TRIM_EVERY`], or
/// is unknown.
fn trim_due(root: &Path, policy: &Policy, now: SystemTime) -> bool {
    let Ok(Some(said)) = crate::beneath::read(root, TRIMMED, 256) else {
        return true;
    };
    let when = fs::symlink_metadata(root.join(TRIMMED)).and_then(|m| m.modified());
    let recent = when
        .ok()
        .and_then(|t| now.duration_since(t).ok())
        .is_some_and(|age| age < TRIM_EVERY);
    !recent || said != stamp(policy).as_bytes()
}

/// Every entry of the cache at `root`: `kind/xx/rest` for each kind
/// folder (all but `tmp`). Every folder on the way, and every entry, must
/// be the judge's alone (see `trust`); no link is followed.
fn entries(root: &Path) -> Result<Vec<Entry>, CacheError> {
    let mut out = Vec::new();
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CacheError::Io { path, source }
    };
    let kinds = match fs::read_dir(root) {
        Ok(k) => k,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(io(root)(e)),
    };
    for kind in kinds {
        let kind = kind.map_err(io(root))?;
        let name = kind.file_name().to_string_lossy().into_owned();
        let meta = fs::symlink_metadata(kind.path()).map_err(io(&kind.path()))?;
        if name == TMP || meta.file_type().is_symlink() || meta.is_dir() {
            trust::check_meta(root, &kind.path(), &meta, true)?;
        }
        if name == TMP || !meta.is_dir() {
            continue;
        }
        for shard in fs::read_dir(kind.path()).map_err(io(&kind.path()))? {
            let shard = shard.map_err(io(&kind.path()))?;
            trust::check_folder(root, &shard.path())?;
            for e in fs::read_dir(shard.path()).map_err(io(&shard.path()))? {
                let e = e.map_err(io(&shard.path()))?;
                let meta = fs::symlink_metadata(e.path()).map_err(io(&e.path()))?;
                trust::check_meta(root, &e.path(), &meta, meta.is_dir())?;
                let size = if meta.is_dir() {
                    walkdir::WalkDir::new(e.path())
                        .into_iter()
                        .filter_map(Result::ok)
                        .filter_map(|w| w.metadata().ok())
                        .filter(|m| m.is_file())
                        .map(|m| m.len())
                        .sum()
                } else {
                    meta.len()
                };
                out.push(Entry {
                    path: e.path(),
                    kind: name.clone(),
                    size,
                    last_used: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                });
            }
        }
    }
    Ok(out)
}

/// Bounds the cache at `root` by `policy` as of `now` (no policy: removes
/// every entry); the caller holds the exclusive lock. Work left in `tmp` by
/// judges that died goes too (no other judge has the cache open).
fn trim(root: &Path, policy: Option<&Policy>, now: SystemTime) -> Result<Trimmed, CacheError> {
    let tmp = root.join(TMP);
    let io = |source| CacheError::Io {
        path: root.to_path_buf(),
        source,
    };
    // Never through a link: `tmp` is checked to be our own folder first.
    trust::check_folder(root, &tmp)?;
    for e in fs::read_dir(&tmp).map_err(io)? {
        let _ = crate::beneath::remove_tree(&e.map_err(io)?.path());
    }
    let mut all = entries(root)?;
    // Least recently used first.
    all.sort_by_key(|e| e.last_used);
    let mut total: u64 = all.iter().map(|e| e.size).sum();
    let mut done = Trimmed::default();
    for e in all {
        let unused = now.duration_since(e.last_used).unwrap_or_default();
        if let Some(policy) = policy
            && unused <= policy.max_age
            && total <= policy.max_size.0
        {
            // Every later entry was used more recently: within both bounds.
            break;
        }
        // Out of its place first, then removed: never half an entry.
        let grave = tempfile::Builder::new()
            .prefix("evict-")
            .tempdir_in(&tmp)
            .map_err(io)?;
        fs::rename(&e.path, grave.path().join("entry")).map_err(io)?;
        crate::beneath::remove_tree(&grave.keep()).map_err(io)?;
        total = total.saturating_sub(e.size);
        done.entries += 1;
        done.bytes += e.size;
    }
    Ok(done)
}

#[cfg(test)]
mod tests;
