//! The sweep of groups nobody will take over: those of blocks of run uids
//! nobody holds, those a block's earlier holder left in cgroups other than
//! ours (where the block's note says), and those of the forms older judges
//! used. Whose a group is comes from its name (see [`super::group_name`])
//! and from the lock of its block or the start time of its judge, so
//! nothing is killed on a guess.

use std::fs;
use std::path::Path;

use super::super::uids;
use super::{Hierarchies, empty_and_remove};

impl Hierarchies {
    /// Notes in block `key`'s lock file where this judge makes the block's
    /// groups, and removes those the block's previous holder made
    /// elsewhere. Groups are made below the judge's own cgroups and kept
    /// for the next holder of the block (see [`super`]), but
    /// the next judge may run in other cgroups (another CI job, another
    /// login session): without the note, the groups left in the first
    /// would stay there for good, and keep their parent from being removed.
    pub(super) fn note_block(&self, key: uids::BlockKey) {
        use std::os::unix::ffi::OsStrExt;
        let mut note = Vec::new();
        for dir in self.all() {
            note.extend_from_slice(dir.as_os_str().as_bytes());
            note.push(0);
        }
        if let Ok(old) = uids::replace_note(key, &note) {
            self.remove_noted(&old, key);
        }
    }

    /// Empties and removes block `key`'s groups in the cgroups `note`
    /// names (see [`Hierarchies::note_block`]) but ours, which are ours to
    /// keep or for [`Hierarchies::remove_stale`] to remove.
    fn remove_noted(&self, note: &[u8], key: uids::BlockKey) {
        use std::os::unix::ffi::OsStrExt;
        let noted = note
            .split(|&b| b == 0)
            .map(|p| Path::new(std::ffi::OsStr::from_bytes(p)));
        for (dir, ours) in noted.zip(self.all()) {
            if dir != ours && is_cgroup_folder(dir) {
                remove_block_groups(dir, key);
            }
        }
    }

    /// Removes the groups nobody will take over: those of blocks of run
    /// uids nobody holds (locked while they are emptied, so that no judge
    /// claims the block meanwhile), and, in the forms older judges used,
    /// those of judges of our own pid namespace whose pid is gone or now
    /// names a process that started at another time. Groups of blocks or
    /// judges of other containers cannot be checked from here and are left
    /// alone (a group of the oldest `grundy-<pid>-<slot>` form only when it
    /// is empty, which `rmdir` itself ensures: no process is killed on a
    /// guess). `own`: our first block, whose groups we use.
    pub(super) fn remove_stale(&self, own: uids::BlockKey) {
        let me = owner();
        let own_proc = proc_is_ours(&me);
        // A judge has a group per slot in each hierarchy: its start time,
        // or its block's lock, is looked up once.
        let mut starts = std::collections::HashMap::new();
        let mut free_blocks = std::collections::HashMap::new();
        for base in self.all() {
            let Ok(entries) = fs::read_dir(base) else {
                continue;
            };
            for e in entries.filter_map(Result::ok) {
                let name = e.file_name().to_string_lossy().into_owned();
                match stale(&name, &me, own_proc, &mut starts) {
                    Some(Stale::Dead) => empty_and_remove(&e.path()),
                    Some(Stale::IfEmpty) => {
                        let _ = fs::remove_dir(e.path());
                    }
                    Some(Stale::Block(key)) if key != own => {
                        let free = free_blocks.entry(key).or_insert_with(|| {
                            let file = uids::lock_if_free(key)?;
                            // Its groups in other cgroups too, where its
                            // last holder noted them.
                            if let Ok(note) = uids::take_note(&file) {
                                self.remove_noted(&note, key);
                            }
                            Some(file)
                        });
                        if free.is_some() {
                            empty_and_remove(&e.path());
                        }
                    }
                    Some(Stale::Block(_)) | None => {}
                }
            }
        }
    }
}

/// The block of run uids whose slot group `name` is, if it is one:
/// `grundy-b<dev>-<ino>-<slot>` (see [`group_name`]).
fn block_of(name: &str) -> Option<uids::BlockKey> {
    let rest = name.strip_prefix("grundy-b")?;
    let mut fields = rest.split('-');
    let (dev, ino, slot) = (fields.next()?, fields.next()?, fields.next()?);
    if fields.next().is_some() {
        return None;
    }
    slot.parse::<u32>().ok()?;
    Some(uids::BlockKey {
        dev: dev.parse().ok()?,
        ino: ino.parse().ok()?,
    })
}

/// Whether `dir`, read from a block's note, is a plain absolute path (no
/// `.` or `..`) to a folder of a cgroup v1 file system: the only kind of
/// place whose groups a note may have us remove.
fn is_cgroup_folder(dir: &Path) -> bool {
    use std::path::Component;
    let plain = dir.is_absolute()
        && dir
            .components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_)));
    plain && rustix::fs::statfs(dir).is_ok_and(|fs| fs.f_type == libc::CGROUP_SUPER_MAGIC)
}

/// Empties and removes the groups of block `key`'s slots in `dir`.
fn remove_block_groups(dir: &Path, key: uids::BlockKey) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let name = e.file_name();
        if name.to_str().and_then(block_of) == Some(key) {
            empty_and_remove(&e.path());
        }
    }
}

/// This process, as the groups of older judges named their owner
/// (`grundy-<pid ns>-<pid>-<start>-<random>-<slot>`): what tells whether
/// such a group's judge is gone.
#[derive(Debug)]
struct Owner {
    /// Inode of our pid namespace: pids are only unique within one.
    pid_ns: u64,
    pid: u32,
}

/// This process's [`Owner`].
fn owner() -> Owner {
    use std::os::unix::fs::MetadataExt;
    Owner {
        pid_ns: fs::metadata("/proc/self/ns/pid").map_or(0, |m| m.ino()),
        pid: std::process::id(),
    }
}

/// The start time of process `pid` (a number or `self`) from `/proc`.
fn start_time(pid: &str) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    // Field 22 of stat; `rest` starts at field 3.
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// What may become of a group found by the sweep.
#[derive(Debug, PartialEq, Eq)]
enum Stale {
    /// Its owner provably died: kill what is left and remove it.
    Dead,
    /// It may be removed only if empty.
    IfEmpty,
    /// A slot's of this block of run uids: removed if nobody holds it.
    Block(uids::BlockKey),
}

/// Whether the group `name` is stale, and how; `None` when it is not ours
/// to touch. `own_proc`: our `/proc` shows our own pid namespace;
/// `starts`: the start times read so far, by pid.
fn stale(
    name: &str,
    me: &Owner,
    own_proc: bool,
    starts: &mut std::collections::HashMap<u32, Option<u64>>,
) -> Option<Stale> {
    let rest = name.strip_prefix("grundy-")?;
    let fields: Vec<&str> = rest.split('-').collect();
    match fields.as_slice() {
        [_, _, _] => block_of(name).map(Stale::Block),
        [ns, pid, start, _random, _slot] => {
            let (ns, pid, start) = (
                ns.parse::<u64>().ok()?,
                pid.parse::<u32>().ok()?,
                start.parse::<u64>().ok()?,
            );
            if ns != me.pid_ns || !own_proc {
                return None;
            }
            let now = *starts
                .entry(pid)
                .or_insert_with(|| start_time(&pid.to_string()));
            if now == Some(start) {
                return None;
            }
            Some(Stale::Dead)
        }
        [pid, slot] if pid.parse::<u32>().is_ok() && slot.parse::<u32>().is_ok() => {
            Some(Stale::IfEmpty)
        }
        _ => None,
    }
}

/// Whether `/proc` shows our own pid namespace's pids: if not, a live
/// judge could look dead.
fn proc_is_ours(me: &Owner) -> bool {
    fs::read_link("/proc/self")
        .ok()
        .and_then(|p| p.to_str()?.parse::<u32>().ok())
        == Some(me.pid)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A judge's groups are judged by its start time, read once per pid
    /// however many groups (slots, hierarchies) it has.
    #[test]
    fn groups_are_stale_exactly_when_their_judge_is_gone() {
        let me = &owner();
        let own_proc = proc_is_ours(me);
        assert!(own_proc, "the test's /proc shows its own pid namespace");
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("spawn true");
        let dead = child.id();
        child.wait().expect("wait");
        let start = start_time("self").expect("own start time");
        let ns = me.pid_ns;
        let name =
            |pid: u32, start: u64, slot: u32| format!("grundy-{ns}-{pid}-{start}-0a0b0c0d-{slot}");
        let mut starts = std::collections::HashMap::new();
        let mut is = |n: &str| stale(n, me, own_proc, &mut starts);
        // This judge (any slot): alive.
        assert_eq!(is(&name(me.pid, start, 0)), None);
        assert_eq!(is(&name(me.pid, start, 3)), None);
        // Its pid with another start time: an earlier judge, gone.
        assert_eq!(is(&name(me.pid, start + 1, 0)), Some(Stale::Dead));
        // A pid that exited.
        assert_eq!(is(&name(dead, 7, 0)), Some(Stale::Dead));
        assert_eq!(is(&name(dead, 7, 1)), Some(Stale::Dead));
        // Another pid namespace's, and names not ours: left alone.
        assert_eq!(is(&format!("grundy-{}-{dead}-7-0a0b0c0d-0", ns + 1)), None);
        assert_eq!(is("grundy-hostile"), None);
        assert_eq!(is("other-1-0"), None);
        // The old `grundy-<pid>-<slot>` form: removed only if empty.
        assert_eq!(is(&format!("grundy-{dead}-0")), Some(Stale::IfEmpty));
        // A block's slot: its lock file's device and inode.
        assert_eq!(
            is("grundy-b64768-12-3"),
            Some(Stale::Block(uids::BlockKey {
                dev: 64768,
                ino: 12
            }))
        );
        assert_eq!(is("grundy-bx-12-3"), None);
        assert_eq!(is("grundy-b1-12-x"), None);
        // One start time read per pid.
        assert_eq!(starts.len(), 2, "{starts:?}");
        // Without our own `/proc`, nothing is judged dead.
        let mut starts = std::collections::HashMap::new();
        assert_eq!(stale(&name(dead, 7, 0), me, false, &mut starts), None);
    }
}
