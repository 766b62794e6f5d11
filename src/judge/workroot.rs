//! The judge's working folder in `$TMPDIR`, and the folders of judges that
//! were killed before they could remove theirs.
//!
//! A judge stopped by `kill -9` (or the machine's OOM killer) leaves its
//! folder behind: the scratch files of the runs in flight. Each folder is
//! named after the judge that owns it, `grundy-<pid namespace>-<pid>-…`, so
//! the next judge can remove the folders of judges that are gone. Only
//! folders of the same pid namespace are considered (a judge in another
//! container sharing `$TMPDIR` may be alive though its pid means nothing
//! here), only folders we own, and only when that pid is not running.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The prefix of this judge's working folder.
pub fn prefix() -> String {
    format!("grundy-{}-{}-", pid_namespace(), std::process::id())
}

/// Removes working folders left by dead judges of this pid namespace.
/// Best effort: a folder that cannot be removed is left as it was.
pub fn remove_stale() {
    let ns = pid_namespace();
    let tmp = std::env::temp_dir();
    let Ok(entries) = fs::read_dir(&tmp) else {
        return;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for e in entries.filter_map(Result::ok) {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(|n| owner(n, ns)) else {
            continue;
        };
        let path = e.path();
        let ours = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir() && m.uid() == me);
        if ours && !crate::sandbox::process_exists(pid) {
            remove(&path);
        }
    }
}

/// The pid of the judge that made folder `name` in pid namespace `ns`.
fn owner(name: &str, ns: u64) -> Option<libc::pid_t> {
    let mut parts = name.strip_prefix("grundy-")?.splitn(3, '-');
    let folder_ns: u64 = parts.next()?.parse().ok()?;
    let pid: libc::pid_t = parts.next()?.parse().ok()?;
    parts.next()?;
    (folder_ns == ns && ns != 0 && pid > 0).then_some(pid)
}

/// The inode of our pid namespace (0 when it cannot be read, which turns
/// the sweep off).
fn pid_namespace() -> u64 {
    fs::metadata("/proc/self/ns/pid").map_or(0, |m| m.ino())
}

fn remove(path: &Path) {
    let _ = remove_tree(path);
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
        match cur.first_entry()? {
            Some((name, is_dir)) => {
                if is_dir {
                    // Our own uid may need the permission back; root does not.
                    // SAFETY: a NUL-terminated name relative to a live descriptor.
                    unsafe {
                        libc::fchmodat(cur.0, name.as_ptr(), 0o700, 0);
                    }
                    let parent = cur.identity()?;
                    let next = open_dir(cur.0, &name)?;
                    trail.push((name, parent));
                    cur = next;
                } else {
                    // SAFETY: as above.
                    if unsafe { libc::unlinkat(cur.0, name.as_ptr(), 0) } != 0 {
                        return Err(Error::last_os_error());
                    }
                }
            }
            None => {
                let Some((name, parent_id)) = trail.pop() else {
                    break;
                };
                let parent = open_dir(cur.0, c"..")?;
                if parent.identity()? != parent_id {
                    return Err(Error::other("the tree moved while it was being removed"));
                }
                cur = parent;
                // SAFETY: as above.
                if unsafe { libc::unlinkat(cur.0, name.as_ptr(), libc::AT_REMOVEDIR) } != 0 {
                    return Err(Error::last_os_error());
                }
            }
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

    /// The first entry other than `.` and `..`, and whether it is a folder
    /// (never a symbolic link to one). Read afresh each time: what was
    /// removed is gone, so the listing starts over cheaply.
    fn first_entry(&self) -> std::io::Result<Option<(std::ffi::CString, bool)>> {
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
        let mut found = None;
        loop {
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
            found = Some((name, is_dir));
            break;
        }
        // SAFETY: closing the stream (and its descriptor).
        unsafe { libc::closedir(stream) };
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let tmp = std::env::temp_dir();
        let stale = tmp.join(format!("grundy-{ns}-{dead}-stale"));
        let live = tmp.join(format!("{}live", prefix()));
        fs::create_dir_all(stale.join("run-1")).expect("mkdir");
        fs::write(stale.join("run-1/out"), "x").expect("write");
        fs::create_dir_all(&live).expect("mkdir");
        remove_stale();
        let stale_left = stale.exists();
        let live_left = live.exists();
        let _ = fs::remove_dir_all(&stale);
        let _ = fs::remove_dir_all(&live);
        assert!(!stale_left, "a dead judge's folder stayed");
        assert!(live_left, "a live judge's folder was removed");
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
