//! Whether a cache folder is the judge's alone, and keeping it so.
//!
//! The cache holds the programs the judge runs and the answers it compares
//! with, and a trim removes what it finds there: whoever can change the
//! cache decides verdicts, and can point a root judge's trim at any folder
//! of the machine. So a cache is used only when nobody but the judge's own
//! user (and root) can change it or anything in it:
//!
//! - the folder itself and every folder in it are owned by the judge's
//!   user, are not symbolic links, and are writable by nobody else;
//! - every folder above it is owned by root or the judge's user, and is
//!   writable by others only if it is sticky (`/tmp`), where nobody else
//!   can rename or remove what is ours; a link on the way is owned by root
//!   or the judge's user too.
//!
//! Anything else is refused with the folder and the fix. The judge makes
//! its cache folder with mode 0700 (and takes an existing one of its own
//! to 0700): other users of the machine cannot reach anything in it. Runs
//! reach the compiled programs through the sandbox's mount view, which
//! shows them `bin` and `tmp` alone.
//!
//! What goes into the cache never carries a setuid, setgid or sticky bit
//! and is writable by its owner alone ([`seal`]).

use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Why a cache folder is not the judge's alone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the cache folder {}: {why}; {fix}", path.display())]
pub struct NotOurs {
    pub path: PathBuf,
    pub why: String,
    pub fix: String,
}

/// The judge's user.
fn me() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

fn fix_own(root: &Path) -> String {
    format!(
        "use a cache folder of your own: `mkdir -m 700 DIR` as the user who runs grundy, then \
         --cache DIR or GRUNDY_CACHE=DIR (or remove {} and let grundy make it)",
        root.display()
    )
}

/// Checks the cache folder `root` (absolute) and every folder above it.
pub fn check_root(root: &Path) -> Result<(), NotOurs> {
    check_way(root)?;
    check_folder(root, root)
}

/// The folders and links above `root`: as they are named, and as they
/// are once links are resolved.
fn check_way(root: &Path) -> Result<(), NotOurs> {
    let mut named = Vec::new();
    let mut at = root.parent();
    while let Some(p) = at {
        named.push(p.to_path_buf());
        at = p.parent();
    }
    let real = fs::canonicalize(root.parent().unwrap_or(Path::new("/")))
        .map(|c| {
            let mut all = vec![c.clone()];
            all.extend(c.ancestors().skip(1).map(Path::to_path_buf));
            all
        })
        .unwrap_or_default();
    for p in named.iter().chain(real.iter()) {
        let Ok(m) = fs::symlink_metadata(p) else {
            continue;
        };
        let owner_ok = m.uid() == 0 || m.uid() == me();
        if !owner_ok {
            return Err(NotOurs {
                path: root.to_path_buf(),
                why: format!(
                    "{} above it belongs to another user (uid {}), who could put another folder in its place",
                    p.display(),
                    m.uid()
                ),
                fix: fix_own(root),
            });
        }
        if m.file_type().is_symlink() {
            continue;
        }
        let mode = m.mode();
        let sticky = mode & 0o1000 != 0;
        if writable_by_others(&m) && !sticky {
            return Err(NotOurs {
                path: root.to_path_buf(),
                why: format!(
                    "{} above it is writable by other users (mode {:o}) and not sticky, so they could put another folder in its place",
                    p.display(),
                    mode & 0o7777
                ),
                fix: fix_own(root),
            });
        }
    }
    Ok(())
}

/// Whether users other than the owner may change what a folder holds:
/// `o+w`, or `g+w` for a group other than the judge's own.
fn writable_by_others(m: &fs::Metadata) -> bool {
    // SAFETY: getegid has no preconditions.
    let my_group = unsafe { libc::getegid() };
    m.mode() & 0o002 != 0 || (m.mode() & 0o020 != 0 && !(m.uid() == me() && m.gid() == my_group))
}

/// Checks one folder `path` of the cache `root`, never following a link.
pub fn check_folder(root: &Path, path: &Path) -> Result<(), NotOurs> {
    let m = fs::symlink_metadata(path).map_err(|e| NotOurs {
        path: path.to_path_buf(),
        why: format!("cannot be examined ({e})"),
        fix: fix_own(root),
    })?;
    check_meta(root, path, &m, true)
}

/// Checks what `m` says of the cache's `path`: a folder (`folder`) or a
/// regular file, ours, writable by us alone.
pub fn check_meta(root: &Path, path: &Path, m: &fs::Metadata, folder: bool) -> Result<(), NotOurs> {
    let refuse = |why: String| NotOurs {
        path: path.to_path_buf(),
        why,
        fix: if path == root {
            fix_own(root)
        } else {
            format!(
                "something other than grundy changed the cache: remove {} and let grundy make it anew",
                root.display()
            )
        },
    };
    if m.file_type().is_symlink() {
        return Err(refuse(
            "is a symbolic link, which the cache never follows".into(),
        ));
    }
    let right_type = if folder { m.is_dir() } else { m.is_file() };
    if !right_type {
        return Err(refuse(format!(
            "is not a {}",
            if folder { "folder" } else { "regular file" }
        )));
    }
    if m.uid() != me() {
        return Err(refuse(format!(
            "belongs to another user (uid {}), not to the user running grundy (uid {})",
            m.uid(),
            me()
        )));
    }
    if writable_by_others(m) {
        return Err(refuse(format!(
            "is writable by other users (mode {:o})",
            m.mode() & 0o7777
        )));
    }
    Ok(())
}

/// The mode of a folder of the cache below its root.
pub const FOLDER_MODE: u32 = 0o755;
/// The mode of the cache folder itself: nobody else reaches in.
pub const ROOT_MODE: u32 = 0o700;

/// Makes the folder `path` (its parent checked) unless it is there, then
/// checks it.
pub fn make_folder(root: &Path, path: &Path) -> Result<(), NotOurs> {
    use std::os::unix::fs::DirBuilderExt;
    match fs::DirBuilder::new().mode(FOLDER_MODE).create(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            return Err(NotOurs {
                path: path.to_path_buf(),
                why: format!("cannot be made ({e})"),
                fix: fix_own(root),
            });
        }
    }
    check_folder(root, path)
}

/// Makes what a fill left in `dir` fit for the cache, never following a
/// link: folders and files lose setuid, setgid and sticky bits and every
/// write bit but their owner's; anything else (a link, a FIFO) is removed.
pub fn seal(dir: &Path) -> io::Result<()> {
    for e in walkdir::WalkDir::new(dir).follow_links(false) {
        let e = e.map_err(io::Error::other)?;
        let t = e.file_type();
        if t.is_dir() || t.is_file() {
            let m = e.path().symlink_metadata()?;
            let mode = m.mode() & 0o755;
            if m.mode() & 0o7777 != mode {
                fs::set_permissions(e.path(), fs::Permissions::from_mode(mode))?;
            }
        } else {
            fs::remove_file(e.path())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_writable_by_others_or_a_link_is_refused() {
        let t = tempfile::tempdir().expect("tempdir");
        let root = t.path().join("cache");
        fs::create_dir(&root).expect("mkdir");
        fs::set_permissions(&root, fs::Permissions::from_mode(0o700)).expect("chmod");
        check_root(&root).expect("ours");
        fs::set_permissions(&root, fs::Permissions::from_mode(0o777)).expect("chmod");
        let e = check_root(&root).expect_err("writable by others");
        assert!(e.to_string().contains("writable by other users"), "{e}");
        assert!(e.to_string().contains("mkdir -m 700"), "{e}");
        fs::set_permissions(&root, fs::Permissions::from_mode(0o700)).expect("chmod");
        std::os::unix::fs::symlink(t.path(), root.join("bin")).expect("link");
        let e = check_folder(&root, &root.join("bin")).expect_err("a link");
        assert!(e.to_string().contains("symbolic link"), "{e}");
        // Above it, a folder others may write into that is not sticky.
        let open = t.path().join("open");
        fs::create_dir(&open).expect("mkdir");
        fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).expect("chmod");
        let e = check_root(&open.join("cache")).expect_err("not sticky");
        assert!(e.to_string().contains("not sticky"), "{e}");
        fs::set_permissions(&open, fs::Permissions::from_mode(0o1777)).expect("chmod");
        fs::create_dir(open.join("cache")).expect("mkdir");
        check_root(&open.join("cache")).expect("sticky is fine");
    }

    #[test]
    fn sealing_takes_away_setuid_bits_and_others_write_bits() {
        let t = tempfile::tempdir().expect("tempdir");
        let d = t.path();
        fs::create_dir(d.join("sub")).expect("mkdir");
        fs::write(d.join("sub/helper"), b"x").expect("write");
        fs::set_permissions(d.join("sub/helper"), fs::Permissions::from_mode(0o4777))
            .expect("chmod");
        fs::set_permissions(d.join("sub"), fs::Permissions::from_mode(0o3777)).expect("chmod");
        std::os::unix::fs::symlink("/etc/passwd", d.join("link")).expect("link");
        seal(d).expect("seal");
        let mode = |p: &str| fs::symlink_metadata(d.join(p)).expect("meta").mode() & 0o7777;
        assert_eq!(mode("sub/helper"), 0o755);
        assert_eq!(mode("sub"), 0o755);
        assert!(fs::symlink_metadata(d.join("link")).is_err());
    }
}
