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

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::{AtFlags, Mode, OFlags, ResolveFlags};

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

/// Removes the folder `path` and everything in it, whatever a program made
/// there: trees far deeper than `PATH_MAX` (or than any stack would allow
/// recursion), folders it made unreadable, and symbolic links, which are
/// removed and never followed.
///
/// Iterative, with one open directory at a time: it descends by
/// `openat(O_NOFOLLOW)` and climbs back by `..`, checked against the device
/// and inode it came from, so neither the depth of the tree nor the
/// descriptor limit matters. `std::fs::remove_dir_all` recurses (one stack
/// frame and one descriptor per level) and overflowed a worker thread's
/// stack on a 20,000-level chain.
pub fn remove_tree(path: &Path) -> std::io::Result<()> {
    /// Entries listed at once: one listing empties a run's usual folder.
    const BATCH: usize = 512;
    use std::ffi::CString;
    use std::io::Error;
    use std::os::unix::ffi::OsStrExt;

    let open_dir = |at: libc::c_int, name: &std::ffi::CStr| -> std::io::Result<Dir> {
        // SAFETY: opening a NUL-terminated name relative to a live descriptor.
        let fd = unsafe {
            libc::openat(
                at,
                name.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(Error::last_os_error());
        }
        Ok(Dir(fd))
    };
    let c = |b: &[u8]| CString::new(b).map_err(|_| Error::from(std::io::ErrorKind::InvalidInput));
    match fs::symlink_metadata(path) {
        Ok(m) if !m.is_dir() => return fs::remove_file(path),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    }
    let top = c(path.as_os_str().as_bytes())?;
    let _ = fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o700));
    let mut cur = open_dir(libc::AT_FDCWD, &top)?;
    // The names of the folders we are in below `path`, with the identity of
    // each one's parent, to check the climb back.
    let mut trail: Vec<(CString, (u64, u64))> = Vec::new();
    loop {
        let batch = cur.some_entries(BATCH)?;
        if batch.is_empty() {
            let Some((name, parent_id)) = trail.pop() else {
                break;
            };
            let parent = open_dir(cur.0, c"..")?;
            if parent.identity()? != parent_id {
                return Err(Error::other("the tree moved while it was being removed"));
            }
            cur = parent;
            // SAFETY: a NUL-terminated name relative to a live descriptor.
            if unsafe { libc::unlinkat(cur.0, name.as_ptr(), libc::AT_REMOVEDIR) } != 0 {
                return Err(Error::last_os_error());
            }
            continue;
        }
        // The files of the listing go first; then down into its first folder.
        let mut folder = None;
        for (name, is_dir) in batch {
            if is_dir {
                folder.get_or_insert(name);
            // SAFETY: as above.
            } else if unsafe { libc::unlinkat(cur.0, name.as_ptr(), 0) } != 0 {
                return Err(Error::last_os_error());
            }
        }
        if let Some(name) = folder {
            // Our own uid may need the permission back; root does not.
            // SAFETY: as above.
            unsafe {
                libc::fchmodat(cur.0, name.as_ptr(), 0o700, 0);
            }
            let parent = cur.identity()?;
            let next = open_dir(cur.0, &name)?;
            trail.push((name, parent));
            cur = next;
        }
    }
    drop(cur);
    fs::remove_dir(path)
}

/// An open directory, closed on drop.
struct Dir(libc::c_int);

impl Drop for Dir {
    fn drop(&mut self) {
        // SAFETY: closing a descriptor we own.
        unsafe { libc::close(self.0) };
    }
}

impl Dir {
    fn identity(&self) -> std::io::Result<(u64, u64)> {
        // SAFETY: fstat into a zeroed local.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if unsafe { libc::fstat(self.0, &mut st) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok((st.st_dev, st.st_ino))
    }

    /// Up to `max` entries other than `.` and `..`, each with whether it is
    /// a folder (never a symbolic link to one). Read afresh each time: what
    /// was removed is gone, so the listing starts over cheaply; a batch
    /// lets a folder of many files be emptied with few listings.
    fn some_entries(&self, max: usize) -> std::io::Result<Vec<(std::ffi::CString, bool)>> {
        // SAFETY: a new descriptor for the stream, which owns and closes it.
        let fd = unsafe { libc::fcntl(self.0, libc::F_DUPFD_CLOEXEC, 0) };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `fd` is ours; fdopendir takes it over.
        let stream = unsafe { libc::fdopendir(fd) };
        if stream.is_null() {
            let e = std::io::Error::last_os_error();
            // SAFETY: not taken over: close it ourselves.
            unsafe { libc::close(fd) };
            return Err(e);
        }
        // The duplicate shares the offset: start from the beginning.
        // SAFETY: a live stream.
        unsafe { libc::rewinddir(stream) };
        let mut found = Vec::new();
        while found.len() < max {
            // SAFETY: a live stream; the entry is read before the next call.
            let e = unsafe { libc::readdir(stream) };
            if e.is_null() {
                break;
            }
            // SAFETY: readdir returned a valid entry with a NUL-terminated name.
            let (name, kind) = unsafe {
                (
                    std::ffi::CStr::from_ptr((*e).d_name.as_ptr()).to_owned(),
                    (*e).d_type,
                )
            };
            if name.as_bytes() == b"." || name.as_bytes() == b".." {
                continue;
            }
            let is_dir = match kind {
                libc::DT_DIR => true,
                libc::DT_UNKNOWN => {
                    // SAFETY: fstatat into a zeroed local, never following links.
                    let mut st: libc::stat = unsafe { std::mem::zeroed() };
                    let r = unsafe {
                        libc::fstatat(self.0, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW)
                    };
                    r == 0 && st.st_mode & libc::S_IFMT == libc::S_IFDIR
                }
                _ => false,
            };
            found.push((name, is_dir));
        }
        // SAFETY: closing the stream (and its descriptor).
        unsafe { libc::closedir(stream) };
        Ok(found)
    }
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
