//! A run whose working folder is both bounded and kept (a compile): the
//! program starts with a copy of a folder's files and what it leaves is
//! copied back into that folder afterwards.
//!
//! Why copies: a compile's products must outlive the run on disk (the
//! cache), yet a folder on disk is bounded only per file (`RLIMIT_FSIZE`)
//! and by a walk that cannot see files without a name. As root, and as an
//! ordinary user with user namespaces, the run's working folder is
//! therefore a tmpfs of the run's output limit, made before the run (by
//! the judge as root, by its zygote in its user namespace otherwise) and
//! filled by the judge through the mount's descriptor, so that the sources
//! are in it when the program starts, then attached over the folder by
//! `init` like any run's scratch tmpfs; the kernel refuses what is past
//! the cap. Elsewhere (no user namespaces, `--sandbox off`) the same
//! copies are made on disk, so callers see one behaviour.
//!
//! Copies never follow a link (every name is opened beneath its folder's
//! descriptor with `O_NOFOLLOW`), copy only regular files and folders, go
//! at most [`MAX_DEPTH`] folders deep and [`MAX_ENTRIES`] entries wide, and
//! never replace a name the destination already has (the judge's own copy
//! of the sources stays the judge's).

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};

/// Folders deeper than this are not copied: no compiler's products nest
/// so deep, and a tree the program built to be deep costs nothing.
pub const MAX_DEPTH: usize = 64;
/// Entries beyond this many are not copied.
pub const MAX_ENTRIES: usize = 100_000;

fn open_dir_at(dir: BorrowedFd<'_>, name: &std::ffi::OsStr) -> io::Result<OwnedFd> {
    Ok(rustix::fs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// Opens the folder `path` (its last component must not be a link).
pub fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    Ok(rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// The root folder of a detached mount (`fsmount`'s descriptor).
pub fn open_dir_in(mount: &OwnedFd) -> io::Result<OwnedFd> {
    open_dir_at(mount.as_fd(), std::ffi::OsStr::new("."))
}

/// Copies the regular files and folders beneath `from` into `to`, leaving
/// every name `to` already has as it is. With `owner`, only entries owned
/// by that uid are copied (as root, a hard link the run made to another
/// user's file is not the run's to hand over), and with `chown` what is
/// made is given to that uid and gid (the run's, for its sources).
pub fn copy_tree(
    from: BorrowedFd<'_>,
    to: BorrowedFd<'_>,
    owner: Option<u32>,
    chown: Option<(u32, u32)>,
) -> io::Result<()> {
    // Iterative: a tree as deep as the program likes must not grow the
    // judge's stack.
    let mut stack: Vec<(OwnedFd, OwnedFd, usize)> = vec![(
        rustix::io::fcntl_dupfd_cloexec(from, 3)?,
        rustix::io::fcntl_dupfd_cloexec(to, 3)?,
        0,
    )];
    let mut entries = 0usize;
    while let Some((src, dst, depth)) = stack.pop() {
        let mut dir = rustix::fs::Dir::read_from(&src)?;
        while let Some(e) = dir.read() {
            let e = e?;
            let name = e.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            entries += 1;
            if entries > MAX_ENTRIES {
                return Ok(());
            }
            let name = std::ffi::OsStr::from_bytes(name);
            let st = rustix::fs::statat(&src, name, AtFlags::SYMLINK_NOFOLLOW)?;
            if owner.is_some_and(|uid| st.st_uid != uid) {
                continue;
            }
            let exists = rustix::fs::statat(&dst, name, AtFlags::SYMLINK_NOFOLLOW).is_ok();
            match FileType::from_raw_mode(st.st_mode) {
                FileType::Directory if depth < MAX_DEPTH => {
                    if !exists {
                        rustix::fs::mkdirat(&dst, name, Mode::from_raw_mode(0o755))?;
                        if let Some((uid, gid)) = chown {
                            give(&dst, name, uid, gid)?;
                        }
                    }
                    stack.push((
                        open_dir_at(src.as_fd(), name)?,
                        open_dir_at(dst.as_fd(), name)?,
                        depth + 1,
                    ));
                }
                FileType::RegularFile if !exists => {
                    let input = rustix::fs::openat(
                        &src,
                        name,
                        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
                        Mode::empty(),
                    )?;
                    // Executable for everyone when the original was for its owner.
                    let mode = if st.st_mode & 0o100 != 0 {
                        0o755
                    } else {
                        0o644
                    };
                    let output = rustix::fs::openat(
                        &dst,
                        name,
                        OFlags::WRONLY
                            | OFlags::CREATE
                            | OFlags::EXCL
                            | OFlags::NOFOLLOW
                            | OFlags::CLOEXEC,
                        Mode::from_raw_mode(mode),
                    )?;
                    let mut input = File::from(input);
                    let mut output = File::from(output);
                    io::copy(&mut input, &mut output)?;
                    // The umask may have taken bits the program needs.
                    output.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))?;
                    if let Some((uid, gid)) = chown {
                        give(&dst, name, uid, gid)?;
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn give(dir: &OwnedFd, name: &std::ffi::OsStr, uid: u32, gid: u32) -> io::Result<()> {
    Ok(rustix::fs::chownat(
        dir,
        name,
        Some(rustix::fs::Uid::from_raw(uid)),
        Some(rustix::fs::Gid::from_raw(gid)),
        AtFlags::SYMLINK_NOFOLLOW,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn copy(from: &Path, to: &Path) {
        let (f, t) = (open_dir(from).expect("from"), open_dir(to).expect("to"));
        copy_tree(f.as_fd(), t.as_fd(), None, None).expect("copy");
    }

    /// What a compiler leaves comes back as files and folders only: a link
    /// it planted (to a secret, or named like the judge's own copy of the
    /// source) is neither followed nor copied, the judge's files stay its
    /// own, and a tree deeper than anything a compiler makes is cut, not a
    /// stack overflow.
    #[test]
    fn products_come_back_without_links_or_replacing_the_judges_files() {
        let root = tempfile::tempdir().expect("tempdir");
        let (run, work) = (root.path().join("run"), root.path().join("work"));
        fs::create_dir_all(run.join("pkg")).expect("mkdir");
        fs::create_dir_all(&work).expect("mkdir");
        fs::write(root.path().join("secret"), "SECRET").expect("secret");
        fs::write(run.join("main"), "binary").expect("main");
        fs::write(run.join("pkg/A.class"), "class").expect("class");
        fs::write(run.join("main.c"), "changed by the compiler").expect("src");
        fs::write(work.join("main.c"), "the judge's").expect("src");
        std::os::unix::fs::symlink(root.path().join("secret"), run.join("leak")).expect("link");
        std::os::unix::fs::symlink(root.path(), run.join("up")).expect("link");
        let mut deep = run.join("deep");
        for _ in 0..(MAX_DEPTH + 10) {
            deep = deep.join("d");
        }
        fs::create_dir_all(&deep).expect("deep");
        fs::write(deep.join("f"), "too deep").expect("deep file");
        copy(&run, &work);
        assert_eq!(
            fs::read_to_string(work.join("main")).ok().as_deref(),
            Some("binary")
        );
        assert_eq!(
            fs::read_to_string(work.join("pkg/A.class")).ok().as_deref(),
            Some("class")
        );
        assert_eq!(
            fs::read_to_string(work.join("main.c")).ok().as_deref(),
            Some("the judge's")
        );
        assert!(work.join("leak").symlink_metadata().is_err());
        assert!(work.join("up").symlink_metadata().is_err());
        let copied_deep = walkdir::WalkDir::new(work.join("deep"))
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.depth())
            .max()
            .unwrap_or(0);
        assert!(copied_deep <= MAX_DEPTH, "{copied_deep}");
        assert!(copied_deep > 0);
    }
}
