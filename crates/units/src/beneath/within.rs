//! Reading a folder someone else wrote (a problem package) without
//! leaving it: its files are opened beneath its folder only.
//!
//! A package downloaded from the internet, or handed in by another user
//! of the machine, is untrusted input, and the judge reads it outside any
//! sandbox: a validator folder's `loot.txt -> /etc/shadow` or
//! `env.h -> /proc/self/environ`, or a `copy: ../../secret`, would have
//! the judge copy that file into the program's reach. Every path is
//! resolved by the kernel (`openat2` with `RESOLVE_BENEATH` and
//! `RESOLVE_NO_MAGICLINKS`) from the package's folder: a link that stays
//! inside is followed (format tools link shared headers and test files
//! between folders of a package), a link or a `..` that leaves is an
//! error naming the link.
//!
//! A root judge reads a package someone else owns with that owner's
//! rights: the opens happen on a thread whose file-system uid and gid are
//! the owner's (`setfsuid`, which also drops root's file capabilities on
//! that thread), so no hard link, mount or permission trick in the
//! package reaches a file its owner could not read.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{FileType, Mode, OFlags, ResolveFlags};

use super::bounded;

/// A folder whose files are read beneath it.
#[derive(Debug)]
pub struct Within {
    dir: OwnedFd,
    path: PathBuf,
    /// The owner's (uid, gid) whose rights the reads take (a root judge
    /// reading another user's folder), else `None`.
    owner: Option<(u32, u32)>,
}

/// A regular file found by [`Within::files`]: where it goes in a copy (its
/// path below the folder walked) and where it is (below the root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub rel: PathBuf,
    pub at: PathBuf,
}

/// The bounds of a walk: a program folder past them is not a program but
/// a link to somewhere large.
#[derive(Debug, Clone, Copy)]
pub struct WalkBounds {
    pub files: usize,
    pub depth: usize,
}

impl Within {
    /// Opens the folder `root` (named by the user or the judge: links on
    /// the way to it are followed).
    pub fn open(root: &Path) -> io::Result<Within> {
        let dir = rustix::fs::open(
            root,
            OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let st = rustix::fs::fstat(&dir)?;
        // SAFETY: geteuid has no preconditions.
        let root_judge = unsafe { libc::geteuid() } == 0;
        let owner = (root_judge && st.st_uid != 0).then_some((st.st_uid, st.st_gid));
        Ok(Within {
            dir,
            path: root.to_path_buf(),
            owner,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the regular file `rel`, refusing it past `cap` bytes.
    pub fn read(&self, rel: &Path, cap: u64) -> io::Result<Vec<u8>> {
        bounded::read_capped(self.open_file(rel)?, cap)
    }

    /// [`Within::read`] as UTF-8 text.
    pub fn read_text(&self, rel: &Path, cap: u64) -> io::Result<String> {
        bounded::utf8(self.read(rel, cap)?)
    }

    /// Opens the regular file `rel` for reading, without blocking. An
    /// error says which file.
    pub fn open_file(&self, rel: &Path) -> io::Result<File> {
        let fd = self
            .open_at(rel, OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY)
            .map_err(|e| self.named(rel, e))?;
        bounded::regular(File::from(fd)).map_err(|e| self.named(rel, e))
    }

    /// The type of what `rel` names (links inside followed); `None` when
    /// nothing is there.
    pub fn file_type(&self, rel: &Path) -> io::Result<Option<FileType>> {
        match self.open_at(rel, OFlags::PATH) {
            Ok(fd) => Ok(Some(FileType::from_raw_mode(
                rustix::fs::fstat(&fd)?.st_mode,
            ))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Whether `rel` is a regular file beneath the folder.
    pub fn is_file(&self, rel: &Path) -> bool {
        matches!(self.file_type(rel), Ok(Some(FileType::RegularFile)))
    }

    /// The regular files of `rel` (itself if it is a file), in name
    /// order. Links that stay inside are followed when `follow`, else
    /// left out; a link that names nothing is left out (the build then
    /// says what it misses), and so is a link that loops. A link that
    /// leaves the folder, or a FIFO, device or socket, is an error naming
    /// it.
    pub fn files(&self, rel: &Path, follow: bool, bounds: WalkBounds) -> io::Result<Vec<Found>> {
        self.with_rights(|| self.walk(rel, follow, bounds))
    }

    fn walk(&self, rel: &Path, follow: bool, bounds: WalkBounds) -> io::Result<Vec<Found>> {
        let top = self
            .resolve(rel, OFlags::PATH)
            .map_err(|e| self.named(rel, e))?;
        let st = rustix::fs::fstat(&top)?;
        match FileType::from_raw_mode(st.st_mode) {
            FileType::RegularFile => {
                return Ok(vec![Found {
                    rel: PathBuf::new(),
                    at: rel.to_path_buf(),
                }]);
            }
            FileType::Directory => {}
            _ => return Err(self.special(rel)),
        }
        let mut found = Vec::new();
        // (folder below the root, its path in the copy, the folders above
        // it by device and inode, for loops)
        let mut todo = vec![(
            rel.to_path_buf(),
            PathBuf::new(),
            vec![(st.st_dev, st.st_ino)],
        )];
        while let Some((dir, in_copy, above)) = todo.pop() {
            let fd = self
                .resolve(&dir, OFlags::RDONLY | OFlags::DIRECTORY)
                .map_err(|e| self.named(&dir, e))?;
            let mut names = Vec::new();
            let mut listing =
                rustix::fs::Dir::read_from(&fd).map_err(|e| self.named(&dir, e.into()))?;
            while let Some(entry) = listing.read() {
                let name = entry?.file_name().to_bytes().to_vec();
                if name != b"." && name != b".." {
                    names.push(std::ffi::OsStr::from_bytes(&name).to_os_string());
                }
            }
            names.sort();
            // Pushed in reverse so that the walk takes them in name order.
            let mut folders = Vec::new();
            for name in names {
                let at = dir.join(&name);
                let here = rustix::fs::statat(&fd, &name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)?;
                let link = FileType::from_raw_mode(here.st_mode) == FileType::Symlink;
                if link && !follow {
                    continue;
                }
                let st = if link {
                    match self.resolve(&at, OFlags::PATH) {
                        Ok(t) => rustix::fs::fstat(&t)?,
                        Err(e)
                            if e.kind() == io::ErrorKind::NotFound
                                || e.raw_os_error() == Some(libc::ELOOP) =>
                        {
                            continue;
                        }
                        Err(e) => return Err(self.named(&at, e)),
                    }
                } else {
                    here
                };
                match FileType::from_raw_mode(st.st_mode) {
                    FileType::RegularFile => {
                        found.push(Found {
                            rel: in_copy.join(&name),
                            at,
                        });
                        if found.len() > bounds.files {
                            return Err(io::Error::other(format!(
                                "{}: more than {} files",
                                self.path.join(rel).display(),
                                bounds.files
                            )));
                        }
                    }
                    FileType::Directory => {
                        let id = (st.st_dev, st.st_ino);
                        if above.contains(&id) || above.len() > bounds.depth {
                            continue;
                        }
                        let mut deeper = above.clone();
                        deeper.push(id);
                        folders.push((at, in_copy.join(&name), deeper));
                    }
                    _ => return Err(self.special(&at)),
                }
            }
            todo.extend(folders.into_iter().rev());
        }
        found.sort_by(|a, b| a.rel.cmp(&b.rel));
        Ok(found)
    }

    fn special(&self, rel: &Path) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            Named(format!(
                "{}: not a regular file or folder (a FIFO, a device or a socket)",
                self.path.join(rel).display()
            )),
        )
    }

    /// `e`, met at `rel`, saying where unless it already does.
    fn named(&self, rel: &Path, e: io::Error) -> io::Error {
        if e.get_ref().is_some_and(|inner| inner.is::<Named>()) {
            return e;
        }
        let text = format!("{}: {e}", self.path.join(rel).display());
        io::Error::new(e.kind(), Named(text))
    }

    /// Opens `rel` beneath the folder with `flags`, with the owner's rights.
    fn open_at(&self, rel: &Path, flags: OFlags) -> io::Result<OwnedFd> {
        self.with_rights(|| self.resolve(rel, flags))
    }

    /// Opens `rel` beneath the folder (on the current thread's rights); a
    /// way out is an error naming the link that leads there.
    fn resolve(&self, rel: &Path, flags: OFlags) -> io::Result<OwnedFd> {
        let rel = relative(rel)?;
        let how = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(&self.dir, rel, flags | OFlags::CLOEXEC, Mode::empty(), how) {
            Ok(fd) => Ok(fd),
            Err(e @ (rustix::io::Errno::XDEV | rustix::io::Errno::LOOP)) => {
                Err(self.escape(rel).unwrap_or_else(|| e.into()))
            }
            Err(rustix::io::Errno::NOSYS) => self.resolve_old_kernel(rel, flags),
            Err(e) => Err(e.into()),
        }
    }

    /// Before Linux 5.6: the path made canonical must still lie in the
    /// folder, and is then opened without following a last link.
    fn resolve_old_kernel(&self, rel: &Path, flags: OFlags) -> io::Result<OwnedFd> {
        let root = std::fs::canonicalize(&self.path)?;
        let full = std::fs::canonicalize(self.path.join(rel))?;
        if !full.starts_with(&root) {
            return Err(self.escape(rel).unwrap_or_else(|| self.leaves(rel, None)));
        }
        Ok(rustix::fs::open(
            full,
            flags | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )?)
    }

    /// The error for the first link on the way to `rel` that leaves the
    /// folder, if there is one.
    fn escape(&self, rel: &Path) -> Option<io::Error> {
        let mut prefix = PathBuf::new();
        for part in rel.components() {
            prefix.push(part);
            let how = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
            let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let here = match rustix::fs::openat2(&self.dir, &prefix, flags, Mode::empty(), how) {
                Ok(fd) => fd,
                Err(rustix::io::Errno::XDEV) => return Some(self.leaves(&prefix, None)),
                Err(_) => return None,
            };
            let is_link = rustix::fs::fstat(&here)
                .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Symlink);
            if !is_link {
                continue;
            }
            let through = rustix::fs::openat2(
                &self.dir,
                &prefix,
                OFlags::PATH | OFlags::CLOEXEC,
                Mode::empty(),
                how,
            );
            if let Err(rustix::io::Errno::XDEV | rustix::io::Errno::LOOP) = through {
                let target = rustix::fs::readlinkat(here.as_fd(), "", Vec::new())
                    .ok()
                    .map(|t| PathBuf::from(std::ffi::OsStr::from_bytes(t.as_bytes())));
                return Some(self.leaves(&prefix, target));
            }
        }
        None
    }

    fn leaves(&self, rel: &Path, target: Option<PathBuf>) -> io::Error {
        let what = match target {
            Some(t) => format!(
                "{} is a link to {}, outside {}",
                self.path.join(rel).display(),
                t.display(),
                self.path.display()
            ),
            None => format!(
                "{} leads outside {}",
                self.path.join(rel).display(),
                self.path.display()
            ),
        };
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            Named(format!(
                "{what}: only links that stay inside the folder are followed"
            )),
        )
    }

    /// Runs `f` with the owner's file rights when the judge is root and
    /// the folder is someone else's (see the module's documentation).
    fn with_rights<T: Send>(&self, f: impl FnOnce() -> io::Result<T> + Send) -> io::Result<T> {
        let Some((uid, gid)) = self.owner else {
            return f();
        };
        std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("as-owner".into())
                .spawn_scoped(s, move || {
                    become_for_files(uid, gid)?;
                    f()
                })?
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("a read of the package failed")))
        })
    }
}

/// An error message that already names the file it is about.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Named(String);

/// Takes `uid` and `gid` (and no supplementary group) as this thread's
/// file-system identity. The system calls are made directly: the C
/// library's wrappers of `setgroups` change every thread of the process.
fn become_for_files(uid: u32, gid: u32) -> io::Result<()> {
    // SAFETY: these calls change the calling thread's credentials only.
    unsafe {
        if libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) != 0 {
            return Err(io::Error::last_os_error());
        }
        libc::syscall(libc::SYS_setfsgid, gid as libc::c_long);
        libc::syscall(libc::SYS_setfsuid, uid as libc::c_long);
        // Each returns the previous identity: asking again tells whether
        // the change was made.
        let now_uid = libc::syscall(libc::SYS_setfsuid, uid as libc::c_long);
        let now_gid = libc::syscall(libc::SYS_setfsgid, gid as libc::c_long);
        if now_uid != uid as libc::c_long || now_gid != gid as libc::c_long {
            return Err(io::Error::other("cannot take the package owner's rights"));
        }
    }
    Ok(())
}

/// `rel` if it is a relative path (`.` for an empty one).
fn relative(rel: &Path) -> io::Result<&Path> {
    if rel.as_os_str().is_empty() {
        return Ok(Path::new("."));
    }
    if rel.is_absolute() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a path inside the folder", rel.display()),
        ));
    }
    Ok(rel)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    const BOUNDS: WalkBounds = WalkBounds {
        files: 100,
        depth: 8,
    };

    fn package() -> tempfile::TempDir {
        let t = tempfile::tempdir().expect("tempdir");
        let p = t.path().join("pkg");
        std::fs::create_dir_all(p.join("v/sub")).expect("mkdir");
        std::fs::create_dir_all(p.join("shared")).expect("mkdir");
        std::fs::write(p.join("shared/h.h"), "header").expect("write");
        std::fs::write(p.join("v/main.py"), "main").expect("write");
        std::fs::write(p.join("v/sub/b.txt"), "b").expect("write");
        std::fs::write(t.path().join("secret"), "secret").expect("write");
        t
    }

    #[test]
    fn links_inside_are_followed() {
        let t = package();
        let p = t.path().join("pkg");
        symlink("../shared/h.h", p.join("v/h.h")).expect("link");
        symlink("../shared", p.join("v/lib")).expect("link");
        let w = Within::open(&p).expect("open");
        assert_eq!(w.read(Path::new("v/h.h"), 100).expect("read"), b"header");
        let files = w.files(Path::new("v"), true, BOUNDS).expect("walk");
        let rels: Vec<_> = files.iter().map(|f| f.rel.clone()).collect();
        assert_eq!(
            rels,
            ["h.h", "lib/h.h", "main.py", "sub/b.txt"].map(PathBuf::from)
        );
        // Not followed, links are left out.
        let files = w.files(Path::new("v"), false, BOUNDS).expect("walk");
        assert_eq!(files.len(), 2, "{files:?}");
    }

    #[test]
    fn a_link_out_is_an_error_naming_it() {
        let t = package();
        let p = t.path().join("pkg");
        symlink("../../secret", p.join("v/loot.txt")).expect("link");
        symlink("/etc/passwd", p.join("v/sub/abs.txt")).expect("link");
        let w = Within::open(&p).expect("open");
        let e = w.read(Path::new("v/loot.txt"), 100).expect_err("outside");
        assert!(e.to_string().contains("v/loot.txt"), "{e}");
        assert!(e.to_string().contains("../../secret"), "{e}");
        let e = w
            .read(Path::new("v/sub/abs.txt"), 100)
            .expect_err("outside");
        assert!(e.to_string().contains("abs.txt"), "{e}");
        let e = w
            .read(Path::new("v/../../secret"), 100)
            .expect_err("outside");
        assert!(e.to_string().contains("outside"), "{e}");
        let e = w.files(Path::new("v"), true, BOUNDS).expect_err("outside");
        assert!(e.to_string().contains("loot.txt"), "{e}");
        // A folder link out, on the way to a file.
        symlink(t.path(), p.join("up")).expect("link");
        let e = w.read(Path::new("up/secret"), 100).expect_err("outside");
        assert!(e.to_string().contains("/up is a link"), "{e}");
    }

    #[test]
    fn loops_and_dangling_links_are_left_out_and_special_files_refused() {
        let t = package();
        let p = t.path().join("pkg");
        symlink(".", p.join("v/sub/again")).expect("link");
        symlink("nothing-there", p.join("v/gone")).expect("link");
        let w = Within::open(&p).expect("open");
        let files = w.files(Path::new("v"), true, BOUNDS).expect("walk");
        assert_eq!(files.len(), 2, "{files:?}");
        let fifo = p.join("v/fifo");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = w.files(Path::new("v"), true, BOUNDS).expect_err("a FIFO");
        assert!(e.to_string().contains("v/fifo"), "{e}");
        assert!(w.read(Path::new("v/fifo"), 10).is_err());
    }
}
