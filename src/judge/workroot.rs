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

/// Moved to [`crate::beneath`], where the compile cache can use it too.
pub use crate::beneath::remove_tree;

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
