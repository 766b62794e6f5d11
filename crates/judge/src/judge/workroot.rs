//! The judge's working folder (in its user's folder of `$TMPDIR`, see
//! `user_tmp`), and the folders of judges that were killed before they
//! could remove theirs.
//!
//! A judge stopped by `kill -9` (or the machine's OOM killer) leaves its
//! folder behind: the scratch files of the runs in flight. The next judge
//! removes the folders of judges that are gone, and must never remove the
//! folder of one that is alive, wherever it is.
//!
//! A pid cannot tell: a judge in another pid namespace (another container
//! sharing `$TMPDIR`) has a pid that means nothing here, or names an
//! unrelated process. So each judge holds an exclusive `flock` on
//! [`LOCK`] inside its folder for as long as the folder is in use; the
//! kernel releases it when the judge ends, however it ends. A folder is
//! stale exactly when that lock can be taken, whatever namespace its judge
//! was in, and it is removed while the sweeper holds the lock.
//!
//! Folders are still named `grundy-<pid namespace>-<pid>-…`: a folder with
//! no lock file (made by an older grundy, or so new that its judge has not
//! locked it yet) is judged by that pid, only in our own pid namespace, as
//! before. Only folders we own are ever considered.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rustix::fs::{FlockOperation, Mode, OFlags};

/// The lock file in a judge's working folder, held while the judge lives.
pub const LOCK: &str = ".judge.lock";

/// A judge's working folder, locked (see the module's documentation)
/// until it is dropped.
pub struct Workroot {
    dir: tempfile::TempDir,
    /// Holds the `flock` on [`LOCK`]: closing it releases the folder.
    _lock: fs::File,
    /// Run folders given back clean (see [`RunFolder`]), ready for another run.
    spare: Arc<Mutex<Vec<PathBuf>>>,
}

impl Workroot {
    /// Makes and locks a new working folder in `base` (see `user_tmp`).
    pub fn create(base: &Path) -> std::io::Result<Workroot> {
        let dir = tempfile::Builder::new()
            .prefix(&prefix())
            .tempdir_in(base)?;
        // Locked under another name, then renamed: a sweeper that finds
        // the lock file always finds it held, never in the moment between
        // its creation and its lock (when it would take the folder as a
        // dead judge's and remove it under us).
        let fresh = dir.path().join(".lock-new");
        let fd = rustix::fs::open(
            &fresh,
            OFlags::RDWR | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )?;
        rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive)?;
        fs::rename(&fresh, dir.path().join(LOCK))?;
        Ok(Workroot {
            dir,
            _lock: fs::File::from(fd),
            spare: Arc::default(),
        })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A folder for one run: an empty [`RunFolder::WORK`] folder in it and
    /// nothing else. One given back clean is used again; otherwise a new
    /// one is made.
    pub fn run_folder(&self) -> std::io::Result<RunFolder> {
        let folder = |path| RunFolder {
            path,
            spare: Arc::clone(&self.spare),
            work_attached: true,
        };
        loop {
            let reused = self.spare.lock().ok().and_then(|mut s| s.pop());
            let Some(path) = reused else { break };
            let f = folder(path);
            let work = f.path.join(RunFolder::WORK);
            match fs::create_dir(&work) {
                Ok(()) => return Ok(f),
                // Kept (checked empty) when given back: still a folder.
                Err(e)
                    if e.kind() == std::io::ErrorKind::AlreadyExists
                        && fs::symlink_metadata(&work).is_ok_and(|m| m.is_dir()) =>
                {
                    return Ok(f);
                }
                // Dropped: removed, as it is not as it was left.
                Err(_) => {}
            }
        }
        let f = folder(
            tempfile::Builder::new()
                .prefix("run-")
                .tempdir_in(self.path())?
                .keep(),
        );
        fs::create_dir(f.path.join(RunFolder::WORK))?;
        Ok(f)
    }
}

/// A run's folder, from [`Workroot::run_folder`]: removed when dropped, or
/// given back for the next run when it is as a run leaves it.
///
/// Making and removing the folder, its working folder and its output file
/// on every test was most of the judge's own cost on a test of a trivial
/// program: ext4 allocates and journals an inode and a block for each new
/// folder, and truncating a file that holds data costs more than a new
/// file: ext4 writes a file truncated to nothing back to disk as soon as
/// it is closed (`auto_da_alloc`), which made a whole judging of 63 tests
/// 1–4 ms of CPU slower when the output file was kept and emptied. So the
/// output file is removed after each run (and made anew by the
/// next), and the folder is kept. The working folder is removed too when a
/// tmpfs may have been attached over it, as that is what detaches the tmpfs
/// from the mount view (see SECURITY.md); otherwise it is kept if the run
/// left it empty. Everything is checked without following a link: a folder
/// holding anything else is removed instead.
pub struct RunFolder {
    path: PathBuf,
    spare: Arc<Mutex<Vec<PathBuf>>>,
    /// Whether a tmpfs may be attached over the working folder (the case
    /// unless the run said it had none).
    work_attached: bool,
}

impl RunFolder {
    /// The working folder's name in a run's folder.
    pub const WORK: &str = "work";
    /// The output file's name.
    pub const STDOUT: &str = "stdout";

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Says that the run had no tmpfs over its working folder, which can
    /// then be kept for the next run if it is empty.
    pub fn no_tmpfs_attached(&mut self) {
        self.work_attached = false;
    }

    /// Removes the output file, and the working folder where a tmpfs may
    /// be attached; true when what is left is an empty working folder (or
    /// nothing).
    fn as_left(&self) -> bool {
        use rustix::fs::{AtFlags, Dir};
        let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let only = |dir: rustix::fd::OwnedFd, allowed: &[u8]| -> bool {
            let Ok(entries) = Dir::new(dir) else {
                return false;
            };
            entries.into_iter().all(|e| {
                e.is_ok_and(|e| match e.file_name().to_bytes() {
                    b"." | b".." => true,
                    name => name == allowed,
                })
            })
        };
        let Ok(top) = rustix::fs::open(&self.path, dir_flags, Mode::empty()) else {
            return false;
        };
        match rustix::fs::unlinkat(&top, Self::STDOUT, AtFlags::empty()) {
            Ok(()) | Err(rustix::io::Errno::NOENT) => {}
            Err(_) => return false,
        }
        if self.work_attached {
            return match rustix::fs::unlinkat(&top, Self::WORK, AtFlags::REMOVEDIR) {
                Ok(()) | Err(rustix::io::Errno::NOENT) => only(top, b""),
                Err(_) => false,
            };
        }
        // Opened without following a link: a folder, and empty.
        let Ok(work) = rustix::fs::openat(&top, Self::WORK, dir_flags, Mode::empty()) else {
            return false;
        };
        only(work, b"") && only(top, Self::WORK.as_bytes())
    }
}

impl Drop for RunFolder {
    fn drop(&mut self) {
        if self.as_left()
            && let Ok(mut spare) = self.spare.lock()
        {
            spare.push(std::mem::take(&mut self.path));
            return;
        }
        let _ = remove_tree(&self.path);
    }
}

/// What the lock file of a folder says about its judge.
enum Liveness {
    /// Someone holds the lock: the judge is alive.
    Alive,
    /// We now hold the lock (kept until the folder is removed).
    Gone(rustix::fd::OwnedFd),
    /// No lock file: the name's pid is all there is to go by.
    Unlocked,
    /// Anything else (a link in its place, an error): left alone.
    Unknown,
}

fn liveness(folder: &Path) -> Liveness {
    let Ok(dir) = rustix::fs::open(
        folder,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return Liveness::Unknown;
    };
    let fd = match rustix::fs::openat(
        &dir,
        LOCK,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::NOENT) => return Liveness::Unlocked,
        Err(_) => return Liveness::Unknown,
    };
    let regular = rustix::fs::fstat(&fd)
        .is_ok_and(|st| rustix::fs::FileType::from_raw_mode(st.st_mode).is_file());
    if !regular {
        return Liveness::Unknown;
    }
    match rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Liveness::Gone(fd),
        Err(rustix::io::Errno::WOULDBLOCK) => Liveness::Alive,
        Err(_) => Liveness::Unknown,
    }
}

/// The prefix of this judge's working folder.
pub fn prefix() -> String {
    format!("grundy-{}-{}-", pid_namespace(), std::process::id())
}

/// Removes the working folders left in `base` by dead judges (see the
/// module's documentation). Best effort: a folder that cannot be removed
/// is left as it was.
pub fn remove_stale(base: &Path) {
    let ns = pid_namespace();
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for e in entries.filter_map(Result::ok) {
        let name = e.file_name();
        let Some((folder_ns, pid)) = name.to_str().and_then(parse) else {
            continue;
        };
        let path = e.path();
        let ours = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir() && m.uid() == me);
        if !ours {
            continue;
        }
        match liveness(&path) {
            Liveness::Gone(lock) => {
                remove(&path);
                drop(lock);
            }
            Liveness::Unlocked
                if folder_ns == ns && ns != 0 && !crate::sandbox::process_exists(pid) =>
            {
                remove(&path)
            }
            Liveness::Alive | Liveness::Unlocked | Liveness::Unknown => {}
        }
    }
}

/// The pid namespace and pid of the judge that made folder `name`.
fn parse(name: &str) -> Option<(u64, libc::pid_t)> {
    let mut parts = name.strip_prefix("grundy-")?.splitn(3, '-');
    let folder_ns: u64 = parts.next()?.parse().ok()?;
    let pid: libc::pid_t = parts.next()?.parse().ok()?;
    parts.next()?;
    (pid > 0).then_some((folder_ns, pid))
}

/// The pid of the judge that made folder `name` in pid namespace `ns`.
#[cfg(test)]
fn owner(name: &str, ns: u64) -> Option<libc::pid_t> {
    parse(name).and_then(|(folder_ns, pid)| (folder_ns == ns && ns != 0).then_some(pid))
}

/// The inode of our pid namespace (0 when it cannot be read, which turns
/// the sweep off). Read once: a process never leaves its pid namespace
/// (`unshare` and `setns` move only its children), and the folder's name
/// and the sweep both ask.
fn pid_namespace() -> u64 {
    static NS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *NS.get_or_init(|| fs::metadata("/proc/self/ns/pid").map_or(0, |m| m.ino()))
}

fn remove(path: &Path) {
    let _ = remove_tree(path);
}

/// Moved to [`crate::beneath`], where the compile cache can use it too.
pub use crate::beneath::remove_tree;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_folder_left_clean_is_used_again() {
        let base = tempfile::tempdir().expect("tempdir");
        let root = Workroot::create(base.path()).expect("workroot");
        let f = root.run_folder().expect("run folder");
        let first = f.path().to_path_buf();
        assert!(first.join(RunFolder::WORK).is_dir());
        fs::write(first.join(RunFolder::STDOUT), "out").expect("write");
        drop(f);
        // The output file is gone and the working folder (a tmpfs may have
        // been attached over it) made anew.
        let again = root.run_folder().expect("run folder");
        assert_eq!(again.path(), first);
        assert!(!first.join(RunFolder::STDOUT).exists());
        assert!(first.join(RunFolder::WORK).is_dir());
        // Without a tmpfs its empty working folder is kept as it is.
        let work = fs::metadata(first.join(RunFolder::WORK))
            .expect("work")
            .ino();
        let mut again = again;
        again.no_tmpfs_attached();
        drop(again);
        let third = root.run_folder().expect("run folder");
        assert_eq!(third.path(), first);
        let kept = fs::metadata(first.join(RunFolder::WORK))
            .expect("work")
            .ino();
        assert_eq!(kept, work);
    }

    #[test]
    fn a_run_folder_holding_anything_else_goes_without_following_links() {
        let t = tempfile::tempdir().expect("tempdir");
        let victim = t.path().join("victim");
        fs::create_dir(&victim).expect("mkdir");
        fs::write(victim.join("keep"), "x").expect("write");
        let base = tempfile::tempdir().expect("tempdir");
        let root = Workroot::create(base.path()).expect("workroot");
        let planted: [&dyn Fn(&Path); 4] = [
            // A file of the run's in its working folder (`--sandbox off`).
            &|f| fs::write(f.join(RunFolder::WORK).join("left"), "x").expect("write"),
            // Another name beside the working folder (a checker's feedback).
            &|f| fs::create_dir(f.join("feedback")).expect("mkdir"),
            // The output file a link to someone else's folder.
            &|f| std::os::unix::fs::symlink(&victim, f.join(RunFolder::STDOUT)).expect("link"),
            // The working folder swapped for a link.
            &|f| {
                fs::remove_dir(f.join(RunFolder::WORK)).expect("rmdir");
                std::os::unix::fs::symlink(&victim, f.join(RunFolder::WORK)).expect("link");
            },
        ];
        for (i, plant) in planted.iter().enumerate() {
            let mut f = root.run_folder().expect("run folder");
            let path = f.path().to_path_buf();
            plant(&path);
            f.no_tmpfs_attached();
            drop(f);
            let next = root.run_folder().expect("run folder");
            // The link to a victim goes, the victim stays: only the third
            // case leaves a clean folder (the link was the output file).
            if i == 2 {
                assert_eq!(next.path(), path, "case {i}");
            } else {
                assert!(!path.exists(), "case {i}: the folder was kept");
                assert_ne!(next.path(), path, "case {i}");
            }
            assert!(
                victim.join("keep").is_file(),
                "case {i}: a link was followed"
            );
        }
    }

    #[test]
    fn a_kept_working_folder_swapped_for_a_link_is_not_used() {
        let t = tempfile::tempdir().expect("tempdir");
        let base = tempfile::tempdir().expect("tempdir");
        let root = Workroot::create(base.path()).expect("workroot");
        let mut f = root.run_folder().expect("run folder");
        f.no_tmpfs_attached();
        let path = f.path().to_path_buf();
        drop(f);
        // Between runs, `work` becomes a link to a folder elsewhere.
        fs::remove_dir(path.join(RunFolder::WORK)).expect("rmdir");
        std::os::unix::fs::symlink(t.path(), path.join(RunFolder::WORK)).expect("link");
        let next = root.run_folder().expect("run folder");
        let work = fs::symlink_metadata(next.path().join(RunFolder::WORK)).expect("work");
        assert!(work.is_dir(), "a run was given a linked working folder");
        assert!(t.path().is_dir(), "the link was followed");
    }

    #[test]
    fn names_are_read_back() {
        let ns = pid_namespace();
        assert_ne!(ns, 0);
        let name = format!("{}abc123", prefix());
        assert_eq!(owner(&name, ns), Some(std::process::id() as libc::pid_t));
        // Another namespace, the hostile harness's folders, a bare prefix.
        assert_eq!(owner(&name, ns + 1), None);
        assert_eq!(owner("grundy-hostile-abc", ns), None);
        assert_eq!(owner(&format!("grundy-{ns}-42"), ns), None);
    }

    #[test]
    fn only_dead_judges_lose_their_folders() {
        let ns = pid_namespace();
        // A pid that exited: a child we have reaped (the kernel does not
        // hand its number out again at once).
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("spawn true");
        let dead = child.id();
        child.wait().expect("wait");
        let base = tempfile::tempdir().expect("tempdir");
        let tmp = base.path();
        let stale = tmp.join(format!("grundy-{ns}-{dead}-stale"));
        let live = tmp.join(format!("{}live", prefix()));
        fs::create_dir_all(stale.join("run-1")).expect("mkdir");
        fs::write(stale.join("run-1/out"), "x").expect("write");
        fs::create_dir_all(&live).expect("mkdir");
        remove_stale(tmp);
        let stale_left = stale.exists();
        let live_left = live.exists();
        let _ = fs::remove_dir_all(&stale);
        let _ = fs::remove_dir_all(&live);
        assert!(!stale_left, "a dead judge's folder stayed");
        assert!(live_left, "a live judge's folder was removed");
    }

    /// Makes folder `name` in `tmp` with a lock file, held (by the
    /// returned file) or not. Built under another name and renamed into
    /// place, so that a sweep running meanwhile never sees it half made.
    fn locked_folder(tmp: &Path, name: &str, held: bool) -> (std::path::PathBuf, Option<fs::File>) {
        let building = tmp.join(format!("building-{name}"));
        fs::create_dir(&building).expect("mkdir");
        fs::write(building.join("out"), "x").expect("write");
        let lock = fs::File::create(building.join(LOCK)).expect("lock file");
        if held {
            rustix::fs::flock(&lock, FlockOperation::LockExclusive).expect("flock");
        }
        let path = tmp.join(name);
        fs::rename(&building, &path).expect("rename");
        (path, held.then_some(lock))
    }

    #[test]
    fn a_folder_is_stale_exactly_when_its_lock_is_free() {
        let ns = pid_namespace();
        let me = std::process::id();
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("spawn true");
        let dead = child.id();
        child.wait().expect("wait");
        let tag = format!(
            "{me}-{}",
            std::time::UNIX_EPOCH.elapsed().map_or(0, |d| d.as_nanos())
        );
        let base = tempfile::tempdir().expect("tempdir");
        let tmp = base.path();
        // A live judge in another pid namespace whose pid names nothing
        // here (or a dead process): its lock is held, so it stays.
        let (alive_elsewhere, lock_a) =
            locked_folder(tmp, &format!("grundy-{ns}-{dead}-a{tag}"), true);
        let (alive_other_ns, lock_b) =
            locked_folder(tmp, &format!("grundy-{}-{dead}-b{tag}", ns + 1), true);
        // A dead judge of another namespace whose pid is alive here (ours):
        // its lock is free, so it goes.
        let (dead_other_ns, _) =
            locked_folder(tmp, &format!("grundy-{}-{me}-c{tag}", ns + 1), false);
        let (dead_here, _) = locked_folder(tmp, &format!("grundy-{ns}-{me}-d{tag}"), false);
        // This judge's own folder.
        let own = Workroot::create(tmp).expect("workroot");
        remove_stale(tmp);
        let kept = [
            alive_elsewhere.exists(),
            alive_other_ns.exists(),
            own.path().exists(),
        ];
        let gone = [!dead_other_ns.exists(), !dead_here.exists()];
        drop((lock_a, lock_b));
        for p in [
            &alive_elsewhere,
            &alive_other_ns,
            &dead_other_ns,
            &dead_here,
        ] {
            let _ = fs::remove_dir_all(p);
        }
        assert_eq!(kept, [true; 3], "a live judge's folder was removed");
        assert_eq!(gone, [true; 2], "a dead judge's folder stayed");
        let path = own.path().to_path_buf();
        drop(own);
        assert!(!path.exists());
    }

    #[test]
    fn a_chain_deeper_than_path_max_goes_without_following_links() {
        use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
        let t = tempfile::tempdir().expect("tempdir");
        let victim = t.path().join("victim");
        fs::create_dir(&victim).expect("mkdir");
        fs::write(victim.join("keep"), "x").expect("write");
        let root = t.path().join("tree");
        fs::create_dir(&root).expect("mkdir");
        let open = |at: i32, name: &std::ffi::CStr| {
            // SAFETY: a NUL-terminated name relative to a live descriptor.
            let fd = unsafe { libc::openat(at, name.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY) };
            assert!(fd >= 0, "openat: {}", std::io::Error::last_os_error());
            // SAFETY: just opened, ours.
            unsafe { OwnedFd::from_raw_fd(fd) }
        };
        let top = std::ffi::CString::new(root.as_os_str().as_encoded_bytes()).expect("c");
        let mut fd = open(libc::AT_FDCWD, &top);
        // 5,000 levels of 2 bytes: 10,000 bytes of path, beyond PATH_MAX.
        for _ in 0..5000 {
            // SAFETY: as above.
            assert_eq!(
                unsafe { libc::mkdirat(fd.as_raw_fd(), c"d".as_ptr(), 0o755) },
                0
            );
            fd = open(fd.as_raw_fd(), c"d");
        }
        let target = std::ffi::CString::new(victim.as_os_str().as_encoded_bytes()).expect("c");
        // SAFETY: as above.
        unsafe {
            assert_eq!(
                libc::symlinkat(target.as_ptr(), fd.as_raw_fd(), c"link".as_ptr()),
                0
            );
            assert_eq!(libc::mkdirat(fd.as_raw_fd(), c"closed".as_ptr(), 0), 0);
        }
        drop(fd);
        remove_tree(&root).expect("remove");
        assert!(!root.exists());
        assert!(victim.join("keep").is_file(), "a link was followed");
    }
}
