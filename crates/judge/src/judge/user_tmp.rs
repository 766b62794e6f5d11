//! The folder in `$TMPDIR` that holds one user's working folders:
//! `$TMPDIR/grundy-<euid>`, when it is safely that user's.
//!
//! Every judge sweeps the folder it makes its working folder in for the
//! folders of judges that died (see `workroot`). Swept in `$TMPDIR` itself,
//! that is a read of every entry of a shared folder, which on a busy
//! machine holds hundreds: so working folders live one level down, in a
//! folder of their user's, and the sweep reads only that.
//!
//! `$TMPDIR` is shared ground. Another user may make `grundy-<uid>` first
//! (it is then theirs), make it a link to a folder of theirs, or leave it
//! open to others (mode 0777, so that they could plant, rename or remove
//! entries in it). So the folder is used only if, opened without following
//! a link, it is a folder owned by the judge's effective uid with mode 0700:
//! all of it for its user, nothing for its group or others (a umask that
//! took its user's permissions away leaves it unused too); otherwise nothing is ever
//! written into it, and the working folder is made in `$TMPDIR` itself as
//! before, where nobody can deny it (the sticky bit of a shared temporary
//! folder keeps others from removing or renaming what is ours).

use std::path::{Path, PathBuf};

use rustix::fs::{FileType, Mode, OFlags};

/// The mode the folder is made with: its user's alone.
const MODE: u32 = 0o700;

/// Where this user's judges make their working folders: the user's own
/// folder in `$TMPDIR` (made if missing) when it is safely theirs, else
/// `$TMPDIR` itself.
pub fn folder() -> PathBuf {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    folder_in(&std::env::temp_dir(), uid)
}

/// [`folder`] for temporary folder `tmp` and effective uid `uid`.
pub fn folder_in(tmp: &Path, uid: u32) -> PathBuf {
    let own = tmp.join(format!("grundy-{uid}"));
    let usable = match safe(&own, uid) {
        Some(ok) => ok,
        // Missing: made (the umask can only take permissions away), then
        // checked again, as someone may have made it meanwhile.
        None => {
            let made = rustix::fs::mkdir(&own, Mode::from_raw_mode(MODE));
            matches!(made, Ok(()) | Err(rustix::io::Errno::EXIST)) && safe(&own, uid) == Some(true)
        }
    };
    if usable { own } else { tmp.to_path_buf() }
}

/// Whether `path` is a folder owned by `uid` that nobody else may use, by
/// the folder itself (opened without following a link); `None` when there
/// is nothing at `path`.
fn safe(path: &Path, uid: u32) -> Option<bool> {
    let fd = match rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::NOENT) => return None,
        // A link (ELOOP), a file (ENOTDIR), a folder we may not open.
        Err(_) => return Some(false),
    };
    let Ok(st) = rustix::fs::fstat(&fd) else {
        return Some(false);
    };
    Some(
        FileType::from_raw_mode(st.st_mode) == FileType::Directory
            && st.st_uid == uid
            && st.st_mode & 0o777 == MODE,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn uid() -> u32 {
        // SAFETY: as above.
        unsafe { libc::geteuid() }
    }

    #[test]
    fn the_users_folder_is_made_private_and_used_again() {
        let t = tempfile::tempdir().expect("tempdir");
        let first = folder_in(t.path(), uid());
        assert_eq!(first, t.path().join(format!("grundy-{}", uid())));
        let meta = fs::symlink_metadata(&first).expect("made");
        assert!(meta.is_dir());
        assert_eq!(meta.mode() & 0o077, 0, "open to others");
        assert_eq!(folder_in(t.path(), uid()), first);
    }

    #[test]
    fn a_folder_not_safely_the_users_is_never_used() {
        let t = tempfile::tempdir().expect("tempdir");
        let own = t.path().join(format!("grundy-{}", uid()));
        let elsewhere = t.path().join("elsewhere");
        fs::create_dir(&elsewhere).expect("mkdir");
        fs::set_permissions(&elsewhere, fs::Permissions::from_mode(0o700)).expect("chmod");
        let planted: [(&str, &dyn Fn()); 4] = [
            ("a link to a private folder", &|| {
                std::os::unix::fs::symlink(&elsewhere, &own).expect("link")
            }),
            ("open to all", &|| {
                fs::create_dir(&own).expect("mkdir");
                fs::set_permissions(&own, fs::Permissions::from_mode(0o777)).expect("chmod");
            }),
            ("readable by its group", &|| {
                fs::create_dir(&own).expect("mkdir");
                fs::set_permissions(&own, fs::Permissions::from_mode(0o740)).expect("chmod");
            }),
            ("a file", &|| fs::write(&own, "x").expect("write")),
        ];
        for (what, plant) in planted {
            plant();
            assert_eq!(folder_in(t.path(), uid()), t.path(), "{what}");
            let _ = fs::remove_file(&own);
            let _ = fs::remove_dir(&own);
        }
        // Another user's: ours, when asked for by any other uid.
        let other = uid() ^ 1;
        let theirs = t.path().join(format!("grundy-{other}"));
        fs::create_dir(&theirs).expect("mkdir");
        fs::set_permissions(&theirs, fs::Permissions::from_mode(0o700)).expect("chmod");
        assert_eq!(folder_in(t.path(), other), t.path());
    }
}
