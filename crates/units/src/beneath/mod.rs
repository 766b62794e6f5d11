//! Reading and writing files inside a folder that a program could have
//! touched (a compile's artefact folder, a run's folder), without ever
//! following a symbolic link or leaving the folder.
//!
//! A compiler runs user code (macros, build scripts, a configured language
//! whose "compiler" is any program), and it writes into the folder where the
//! judge then writes `compile.log` or reads `compile-failed.log`. A plain
//! `fs::write` there follows a link the compiler planted, so a judge running
//! as root would overwrite any file on the machine; a plain `fs::read` would
//! show any file in a CE message. Every such access goes through here:
//! `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` (the kernel refuses
//! any link or `..` on the way), or, on kernels before 5.6, `openat` with
//! `O_NOFOLLOW` on a name without `/`. Writes first remove what is there and
//! create the file anew (`O_EXCL`), so a planted hard link to someone
//! else's file is replaced rather than written through.
//!
//! The same care for every file someone else controls: `bounded` reads a
//! file a user named (a regular file only, never blocking, capped while
//! reading), `within` reads a folder someone else wrote (a problem
//! package) without leaving it, and `tree` removes whatever a program
//! left in a folder.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::{AtFlags, Mode, OFlags, ResolveFlags};

mod bounded;
mod tree;
mod within;

pub use bounded::{
    DATA_CAP, Refused, SOURCE_CAP, TEXT_CAP, copy_file, copy_open, head, open_regular, read_capped,
    read_file, read_text, regular, utf8,
};
pub use tree::remove_tree;
pub use within::{Found, WalkBounds, Within};

/// Opens `dir` itself; the caller created it or got it from the judge, so
/// only its last component must not be a link.
fn open_dir(dir: &Path) -> io::Result<OwnedFd> {
    Ok(rustix::fs::open(
        dir,
        OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::RDONLY,
        Mode::empty(),
    )?)
}

/// Opens `name` (relative, no `..`) beneath `dir` without following links.
fn open_beneath(dir: &OwnedFd, name: &Path, flags: OFlags, mode: Mode) -> io::Result<OwnedFd> {
    let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat2(
        dir,
        name,
        flags,
        mode,
        ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS,
    ) {
        Err(rustix::io::Errno::NOSYS) => {
            // An old kernel: only a single name can be opened safely.
            if name.components().count() != 1 || name.is_absolute() {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "opening a nested path safely needs openat2 (Linux 5.6)",
                ));
            }
            Ok(rustix::fs::openat(dir, name, flags, mode)?)
        }
        other => Ok(other?),
    }
}

/// Writes `bytes` as the file `name` beneath `dir`: whatever was at that
/// name (a link, a hard link, a file) is removed first, and the new file is
/// created exclusively.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let d = open_dir(dir)?;
    let n = Path::new(name);
    if n.components().count() != 1 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{name}` is not a plain file name"),
        ));
    }
    remove(&d, n)?;
    let fd = open_beneath(
        &d,
        n,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL,
        Mode::from_raw_mode(0o644),
    )?;
    File::from(fd).write_all(bytes)
}

/// Removes the entry `name` of `dir` (a file, a link or an empty folder),
/// if there is one. A folder that is not empty is an error.
fn remove(dir: &OwnedFd, name: &Path) -> io::Result<()> {
    match rustix::fs::unlinkat(dir, name, AtFlags::empty()) {
        Ok(()) | Err(rustix::io::Errno::NOENT) => Ok(()),
        Err(rustix::io::Errno::ISDIR) | Err(rustix::io::Errno::PERM) => {
            match rustix::fs::unlinkat(dir, name, AtFlags::REMOVEDIR) {
                Ok(()) | Err(rustix::io::Errno::NOENT) => Ok(()),
                Err(e) => Err(e.into()),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Removes `name` beneath `dir` if it is there (see [`write`]).
pub fn remove_file(dir: &Path, name: &str) -> io::Result<()> {
    remove(&open_dir(dir)?, Path::new(name))
}

/// Reads at most `cap` bytes of the regular file `name` beneath `dir`;
/// `Ok(None)` when there is no such file. A link, a folder or anything but
/// a regular file there is an error (`O_NONBLOCK` so that a FIFO cannot
/// hold the judge).
pub fn read(dir: &Path, name: &str, cap: u64) -> io::Result<Option<Vec<u8>>> {
    let d = open_dir(dir)?;
    let fd = match open_beneath(
        &d,
        Path::new(name),
        OFlags::RDONLY | OFlags::NONBLOCK,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let file = File::from(fd);
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("`{name}` is not a regular file"),
        ));
    }
    let mut bytes = Vec::new();
    file.take(cap).read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// Creates (or empties) the file at `path` for writing without following a
/// link at its last component: for the files of a run that the judge reads
/// afterwards.
pub fn create_nofollow(path: &Path) -> io::Result<File> {
    let fd = rustix::fs::open(
        path,
        OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o644),
    )?;
    Ok(File::from(fd))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_planted_link_is_replaced_not_followed() {
        let t = tempfile::tempdir().expect("tempdir");
        let victim = t.path().join("victim");
        std::fs::write(&victim, b"precious").expect("victim");
        let dir = t.path().join("work");
        std::fs::create_dir(&dir).expect("dir");
        symlink(&victim, dir.join("compile.log")).expect("link");
        write(&dir, "compile.log", b"log").expect("write");
        assert_eq!(std::fs::read(&victim).expect("victim"), b"precious");
        assert_eq!(std::fs::read(dir.join("compile.log")).expect("log"), b"log");
        let meta = std::fs::symlink_metadata(dir.join("compile.log")).expect("meta");
        assert!(meta.file_type().is_file());
    }

    #[test]
    fn a_planted_hard_link_is_replaced_not_written_through() {
        let t = tempfile::tempdir().expect("tempdir");
        let victim = t.path().join("victim");
        std::fs::write(&victim, b"precious").expect("victim");
        let dir = t.path().join("work");
        std::fs::create_dir(&dir).expect("dir");
        std::fs::hard_link(&victim, dir.join("main-class")).expect("link");
        write(&dir, "main-class", b"Main").expect("write");
        assert_eq!(std::fs::read(&victim).expect("victim"), b"precious");
        assert_eq!(std::fs::read(dir.join("main-class")).expect("mc"), b"Main");
    }

    #[test]
    fn reading_a_planted_link_is_refused() {
        let t = tempfile::tempdir().expect("tempdir");
        let secret = t.path().join("secret");
        std::fs::write(&secret, b"answer").expect("secret");
        let dir = t.path().join("work");
        std::fs::create_dir(&dir).expect("dir");
        symlink(&secret, dir.join("compile-failed.log")).expect("link");
        assert!(read(&dir, "compile-failed.log", 100).is_err());
        assert_eq!(read(&dir, "absent", 100).expect("absent"), None);
        std::fs::write(dir.join("real"), b"0123456789").expect("real");
        assert_eq!(read(&dir, "real", 4).expect("real"), Some(b"0123".to_vec()));
        // A link to a folder on the way is refused too.
        symlink(t.path(), dir.join("up")).expect("link");
        assert!(read(&dir, "up/secret", 100).is_err());
    }

    #[test]
    fn create_nofollow_refuses_a_link() {
        let t = tempfile::tempdir().expect("tempdir");
        let victim = t.path().join("victim");
        std::fs::write(&victim, b"precious").expect("victim");
        symlink(&victim, t.path().join("stderr")).expect("link");
        assert!(create_nofollow(&t.path().join("stderr")).is_err());
        assert_eq!(std::fs::read(&victim).expect("victim"), b"precious");
    }
}
