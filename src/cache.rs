//! A content-addressed store for compiled programs, test inputs and
//! reference answers.
//!
//! Entries are keyed by a hash of everything that determines them, written
//! to a temporary name and renamed into place, so that a crash or two
//! concurrent judges never leave a half-written entry behind.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

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

    pub fn open(root: impl Into<PathBuf>) -> io::Result<Cache> {
        // Absolute, because programs in the cache run in other folders.
        let root = std::path::absolute(root.into())?;
        fs::create_dir_all(root.join("tmp"))?;
        Ok(Cache { root })
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
            .tempdir_in(self.root.join("tmp"))
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
        if dest.is_file() {
            return Ok(dest);
        }
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut tmp = tempfile::NamedTempFile::new_in(self.root.join("tmp"))?;
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
        if dest.is_dir() {
            return Ok(dest);
        }
        let work = self.scratch()?;
        fill(work.path())?;
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent)?;
        }
        let staged = work.keep();
        if let Err(e) = fs::rename(&staged, &dest) {
            let _ = fs::remove_dir_all(&staged);
            // Another judge filled the same entry first: theirs is as good.
            if !dest.is_dir() {
                return Err(e.into());
            }
        }
        Ok(dest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_length_prefixed() {
        assert_ne!(Key::of(&[b"ab", b"c"]), Key::of(&[b"a", b"bc"]));
        assert_eq!(Key::of(&[b"x"]), Key::of(&[b"x"]));
        assert_eq!(Key::of(&[b"x"]).0.len(), 64);
    }

    #[test]
    fn fill_runs_once() {
        let t = tempfile::tempdir().expect("tempdir");
        let c = Cache::open(t.path()).expect("open");
        let k = Key::of(&[b"k"]);
        let mut calls = 0;
        for _ in 0..2 {
            let d = c
                .dir_or_fill::<io::Error>("bin", &k, |p| {
                    calls += 1;
                    fs::write(p.join("a"), b"1")
                })
                .expect("fill");
            assert_eq!(fs::read(d.join("a")).expect("read"), b"1");
        }
        assert_eq!(calls, 1);
    }

    #[test]
    fn failed_fill_leaves_nothing() {
        let t = tempfile::tempdir().expect("tempdir");
        let c = Cache::open(t.path()).expect("open");
        let k = Key::of(&[b"k"]);
        let r = c.dir_or_fill("bin", &k, |_| Err(io::Error::other("no")));
        assert!(r.is_err());
        assert!(!c.path("bin", &k, "").exists());
    }
}
