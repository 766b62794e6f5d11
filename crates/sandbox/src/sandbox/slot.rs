//! Run slots (root only): each run in flight holds one, which gives it a
//! uid and gid of its own and, where cgroups are available, its groups.
//!
//! A uid per slot means that two runs at once cannot signal, trace or read
//! each other through ordinary permissions, and that `RLIMIT_NPROC` counts
//! exactly the processes of one run. The uids come from blocks this judge
//! alone holds (see [`super::uids`]), so that is true across judges too.

use std::sync::{Mutex, Once};

use super::cgroup::Groups;

pub struct Slot {
    pub index: usize,
    /// The uid and gid of its runs, from this judge's blocks.
    uid: u32,
    pub groups: Option<Groups>,
    /// Starts the slot's runs inside its groups (see [`super::zygote`]).
    pub zygote: Option<super::zygote::Zygote>,
}

impl Slot {
    pub fn id(&self) -> u32 {
        self.uid
    }
}

struct Pool {
    free: Vec<Slot>,
    next: usize,
    /// Indices of slots given up whose groups are gone: reused before new
    /// ones, so that a judge whose runs keep failing stays within the uid
    /// block it holds instead of claiming block after block.
    spare: Vec<usize>,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    free: Vec::new(),
    next: 0,
    spare: Vec::new(),
});

/// Hands the index of a slot given up back for reuse, unless groups of it
/// remain (what a run left in them must not meet the next run).
fn retire(slot: &Slot) {
    if slot.groups.as_ref().is_none_or(Groups::gone)
        && let Ok(mut pool) = POOL.lock()
    {
        pool.spare.push(slot.index);
    }
}

/// A slot on loan for one run; back to the pool when dropped.
pub struct Lease(Option<Slot>, std::cell::Cell<bool>);

impl Lease {
    /// Promises that no process of the run is left (its pid namespace is
    /// gone), so the groups need no check before reuse.
    pub fn set_empty(&self) {
        self.1.set(true);
    }

    /// Gives the slot up (its zygote failed): a new one is made instead.
    pub fn discard(mut self) {
        if let Some(mut slot) = self.0.take() {
            drop(slot.zygote.take());
            if let Some(g) = &slot.groups {
                g.remove();
            }
            retire(&slot);
        }
    }
}

impl std::ops::Deref for Lease {
    type Target = Slot;
    fn deref(&self) -> &Slot {
        // The option is only emptied in `drop`.
        self.0.as_ref().unwrap_or_else(|| unreachable!())
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(mut slot) = self.0.take() else {
            return;
        };
        // A run that may have left processes behind has its groups emptied,
        // which kills the zygote living in them too; a zygote may also have
        // died on its own. Either way the slot is not reused as it is (a
        // request to a dead zygote would never be answered): it is given up
        // and the next lease makes a fresh one.
        let drained = self.1.get() || slot.groups.is_none();
        let zygote_ok = slot
            .zygote
            .as_ref()
            .is_none_or(super::zygote::Zygote::alive);
        if drained && zygote_ok {
            if let Ok(mut pool) = POOL.lock() {
                pool.free.push(slot);
            }
            return;
        }
        drop(slot.zygote.take());
        if let Some(g) = &slot.groups {
            // What the run left is killed first; groups that cannot be
            // emptied stay, unused, until the judge exits.
            if g.drain() {
                g.remove();
            }
        }
        retire(&slot);
    }
}

/// Takes a free slot, or makes a new one (with cgroups when `hierarchies`
/// is given).
pub fn lease(hierarchies: Option<&super::cgroup::Hierarchies>) -> std::io::Result<Lease> {
    let index = {
        let mut pool = POOL
            .lock()
            .map_err(|_| std::io::Error::other("slot pool poisoned"))?;
        if let Some(slot) = pool.free.pop() {
            return Ok(Lease(Some(slot), std::cell::Cell::new(false)));
        }
        match pool.spare.pop() {
            Some(i) => i,
            None => {
                pool.next += 1;
                pool.next - 1
            }
        }
    };
    let run = match super::uids::id(index) {
        Ok(run) => run,
        Err(e) => {
            if let Ok(mut pool) = POOL.lock() {
                pool.spare.push(index);
            }
            return Err(e);
        }
    };
    // A slot whose groups cannot be made still isolates by uid; the report
    // of its runs then lacks the cgroups.
    let (groups, zygote) = match hierarchies.map(|h| with_groups(h, &run)) {
        Some(Ok((g, z))) => (Some(g), Some(z)),
        Some(Err(_)) | None => (None, None),
    };
    Ok(Lease(
        Some(Slot {
            index,
            uid: run.uid,
            groups,
            zygote,
        }),
        std::cell::Cell::new(false),
    ))
}

fn with_groups(
    h: &super::cgroup::Hierarchies,
    run: &super::uids::RunId,
) -> std::io::Result<(Groups, super::zygote::Zygote)> {
    register_cleanup();
    let g = Groups::create(h, run)?;
    let fds: Vec<_> = g.join.iter().map(std::os::fd::AsRawFd::as_raw_fd).collect();
    match super::zygote::Zygote::start(&fds, false) {
        Ok(z) => Ok((g, z)),
        Err(e) => {
            g.remove();
            Err(e)
        }
    }
}

fn register_cleanup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: registering a plain function to run at normal exit.
        unsafe { libc::atexit(end_zygotes) };
    });
}

/// Empties the cgroups of idle slots when the judge exits normally, by
/// ending their zygotes (reaped, so gone from the groups), and leaves the
/// groups for the next judge holding the same block of uids (see
/// [`super::cgroup`]). A judge that dies otherwise leaves its zygotes to
/// die with it (`PR_SET_PDEATHSIG`) and anything else to that next judge.
extern "C" fn end_zygotes() {
    if let Ok(mut pool) = POOL.try_lock() {
        for mut slot in pool.free.drain(..) {
            drop(slot.zygote.take());
        }
    }
}
