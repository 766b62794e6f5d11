//! Run uids (root only): each judge claims blocks of them for itself, so
//! that two judges on one machine never run programs as the same uid.
//!
//! Per-uid limits are the reason: `RLIMIT_NPROC` counts every task of a
//! uid on the machine, so a thread bomb run as uid `u` by one judge would
//! make every fork of another judge's run as `u` fail (`EAGAIN`, a false
//! `RE` or `CE`). Slot `n` of a judge runs as the `n % BLOCK`-th uid of the
//! `n / BLOCK`-th block the judge holds.
//!
//! A block is held by an exclusive `flock` on `<LOCKS>/<block>.lock`, taken
//! without waiting when the judge first needs it and kept for its whole
//! life. The kernel drops the lock when the judge ends, however it ends
//! (`kill -9`, the OOM killer), so a claim is never stale and nothing has
//! to be swept. The descriptor is close-on-exec and every run closes all
//! descriptors before `execve`, so no program can keep a claim alive.
//!
//! Judges in containers that share the machine's uids but not its `/run`
//! cannot see each other's claims; SECURITY.md says so.

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::Mutex;

use rustix::fs::{FlockOperation, Mode, OFlags};

/// First uid (and gid) used for runs. Far above the ids that distributions
/// hand out and above the usual subordinate id ranges of rootless
/// containers.
pub const RUN_ID_BASE: u32 = 1_999_000_000;
/// How many run uids (from [`RUN_ID_BASE`]) must exist in our user
/// namespace for runs to switch to them (see `probe.rs`).
pub const RUN_IDS: u32 = 1024;
/// Uids per block: more than the runs one judge has in flight at once (a
/// slot per worker, two for an interactive test), so a judge usually holds
/// one block, and [`RUN_IDS`] / `BLOCK` judges fit on a machine.
pub const BLOCK: u32 = 64;
/// Where the claims are: root's own, on a file system that starts empty at
/// boot.
pub const LOCKS: &str = "/run/grundy/uids";

/// The blocks this process holds, in the order claimed; the file keeps
/// the lock.
static HELD: Mutex<Vec<(u32, File)>> = Mutex::new(Vec::new());

/// Which block of run uids a claim is: the device and inode of its lock
/// file. Unlike the block's number, it differs between judges in
/// containers that do not share `/run` (their locks are other files), so
/// it can name things only the block's holder may use: its slots' cgroups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockKey {
    pub dev: u64,
    pub ino: u64,
}

/// The uid of slot `index` and its place in the blocks held: the key of
/// the slot's block and its offset there.
#[derive(Debug, Clone, Copy)]
pub struct RunId {
    pub uid: u32,
    pub block: BlockKey,
    pub offset: u32,
}

/// The uid of slot `index`, claiming a further block if the slot is the
/// first of one.
pub fn id(index: usize) -> io::Result<RunId> {
    let nth = index / BLOCK as usize;
    let offset = (index % BLOCK as usize) as u32;
    let mut held = HELD
        .lock()
        .map_err(|_| io::Error::other("run uid claims poisoned"))?;
    while held.len() <= nth {
        let taken: Vec<u32> = held.iter().map(|(b, _)| *b).collect();
        let claim = claim(Path::new(LOCKS), &taken)?;
        held.push(claim);
    }
    let (block, file) = &held[nth];
    Ok(RunId {
        uid: RUN_ID_BASE + block * BLOCK + offset,
        block: key(file)?,
        offset,
    })
}

fn key(file: &File) -> io::Result<BlockKey> {
    let st = rustix::fs::fstat(file)?;
    Ok(BlockKey {
        dev: st.st_dev,
        ino: st.st_ino,
    })
}

/// The most of a block's note that is read (see [`replace_note`]): room
/// for three cgroup paths of the longest the kernel gives.
const NOTE_BYTES: usize = 3 * 4096 + 64;

/// Puts `note` in the lock file of block `wanted`, which this process
/// holds, and returns what the file held before (up to [`NOTE_BYTES`]):
/// the note of the block's previous holder, which says where it made the
/// block's cgroups, so that a judge running in another cgroup finds and
/// removes them. Only holders write the file, in a folder only root can
/// write in (see [`open_locks`]); a note equal to the one there is not
/// written again.
pub fn replace_note(wanted: BlockKey, note: &[u8]) -> io::Result<Vec<u8>> {
    let held = HELD
        .lock()
        .map_err(|_| io::Error::other("run uid claims poisoned"))?;
    let file = held
        .iter()
        .map(|(_, f)| f)
        .find(|f| key(f).ok() == Some(wanted))
        .ok_or_else(|| io::Error::other("not a block of run uids this judge holds"))?;
    swap_note(file, note)
}

/// The note of a block locked by [`lock_if_free`], emptied: its groups are
/// being removed, wherever the note says they are.
pub fn take_note(file: &File) -> io::Result<Vec<u8>> {
    swap_note(file, b"")
}

/// [`replace_note`] on the lock file itself.
fn swap_note(file: &File, note: &[u8]) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut old = vec![0; NOTE_BYTES];
    let mut len = 0;
    while len < old.len() {
        match file.read_at(&mut old[len..], len as u64)? {
            0 => break,
            n => len += n,
        }
    }
    old.truncate(len);
    if old != note {
        file.set_len(0)?;
        file.write_all_at(note, 0)?;
    }
    Ok(old)
}

/// Locks the block whose lock file is `key` if nobody holds it (this
/// process included): the lock is kept while the file lives, so that no
/// judge claims the block while its leftovers are swept. `None` when the
/// block is held, or is not one of this machine's `/run` (another
/// container's, which cannot be checked from here).
pub fn lock_if_free(wanted: BlockKey) -> Option<File> {
    let dir = rustix::fs::open(
        LOCKS,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    let st = rustix::fs::fstat(&dir).ok()?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if st.st_dev != wanted.dev || st.st_uid != me || st.st_mode & 0o022 != 0 {
        return None;
    }
    for block in 0..RUN_IDS / BLOCK {
        let Ok(fd) = rustix::fs::openat(
            &dir,
            format!("{block}.lock"),
            OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        ) else {
            continue;
        };
        let file = File::from(fd);
        if key(&file).ok() != Some(wanted) {
            continue;
        }
        return rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive)
            .ok()
            .map(|()| file);
    }
    None
}

/// Takes the first block not held by anyone (nor listed in `taken`, ours
/// already) by locking its file in `dir`.
fn claim(dir: &Path, taken: &[u32]) -> io::Result<(u32, File)> {
    let dir = open_locks(dir)?;
    for block in (0..RUN_IDS / BLOCK).filter(|b| !taken.contains(b)) {
        let fd = rustix::fs::openat(
            &dir,
            format!("{block}.lock"),
            OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )?;
        match rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok((block, File::from(fd))),
            Err(rustix::io::Errno::WOULDBLOCK) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::ResourceBusy,
        format!(
            "every block of run uids ({} blocks of {BLOCK} from uid {RUN_ID_BASE}) is held by \
             other judges on this machine (their locks are in {LOCKS}); wait for one to finish",
            RUN_IDS / BLOCK
        ),
    ))
}

/// Opens (making it if need be) the folder of claims, refusing one that
/// someone other than us could have planted or could write in: a lock file
/// others can replace proves nothing.
fn open_locks(dir: &Path) -> io::Result<rustix::fd::OwnedFd> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let fd = rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let st = rustix::fs::fstat(&fd)?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if st.st_uid != me || st.st_mode & 0o022 != 0 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} must be a folder only its owner (uid {me}) can write in",
                dir.display()
            ),
        ));
    }
    Ok(fd)
}

use std::os::unix::fs::DirBuilderExt;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_skip_held_blocks_and_end_with_a_clear_error() {
        let t = tempfile::tempdir().expect("tempdir");
        let dir = t.path().join("uids");
        let first = claim(&dir, &[]).expect("claim");
        assert_eq!(first.0, 0);
        // Held by another open file (another judge): skipped.
        let second = claim(&dir, &[]).expect("claim");
        assert_eq!(second.0, 1);
        // Released (the judge ended): free again.
        drop(first);
        let again = claim(&dir, &[]).expect("claim");
        assert_eq!(again.0, 0);
        // Ours already, even when unlocked: skipped.
        let skipped = claim(&dir, &[2]).expect("claim");
        assert_eq!(skipped.0, 3);
        let mut all = vec![again, second, skipped];
        while let Ok(c) = claim(&dir, &[]) {
            all.push(c);
        }
        assert_eq!(all.len() as u32, RUN_IDS / BLOCK);
        let e = claim(&dir, &[]).expect_err("all blocks held");
        assert!(e.to_string().contains("held by other judges"), "{e}");
    }

    /// A block's note comes back to its next holder as written, read no
    /// further than [`NOTE_BYTES`], and is replaced whole.
    #[test]
    fn a_note_is_handed_to_the_next_holder() {
        let t = tempfile::tempdir().expect("tempdir");
        let dir = t.path().join("uids");
        let (_, file) = claim(&dir, &[]).expect("claim");
        assert_eq!(swap_note(&file, b"/a\0/b\0").expect("note"), b"");
        assert_eq!(swap_note(&file, b"/c\0").expect("note"), b"/a\0/b\0");
        assert_eq!(swap_note(&file, b"/c\0").expect("note"), b"/c\0");
        let long = vec![b'x'; NOTE_BYTES + 10];
        swap_note(&file, &long).expect("note");
        let back = swap_note(&file, b"").expect("note");
        assert_eq!(back.len(), NOTE_BYTES, "read no further than the bound");
        assert_eq!(swap_note(&file, b"").expect("note"), b"", "emptied");
    }

    #[test]
    fn a_folder_others_can_write_in_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().expect("tempdir");
        let dir = t.path().join("uids");
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        let e = claim(&dir, &[]).expect_err("writable by others");
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied, "{e}");
        // A link in its place is not followed.
        let link = t.path().join("link");
        std::os::unix::fs::symlink(t.path(), &link).expect("symlink");
        assert!(claim(&link, &[]).is_err());
    }
}
