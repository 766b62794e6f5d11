//! Removing a tree a program made, whatever it made there.

use std::fs;
use std::path::Path;

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
