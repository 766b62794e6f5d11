//! The hand-over between the compiler threads that work ahead of a
//! batch's workers and the workers: which submissions a worker has taken,
//! which are being compiled, and how far ahead the compilers may go.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

/// How many submissions the compilers may work ahead of the workers. The
/// programs they build stay in the cache, so an interrupt wastes nothing
/// that a resumed run would not use; the bound only keeps a run that is
/// stopped early from having compiled the whole class first.
pub(super) const LOOKAHEAD: usize = 32;

/// Compiler threads working ahead: the CPUs the tests leave free (at least
/// one). Compiling is the judge's work, not a submission's, so it goes on
/// the cores that `--jobs` leaves to the judge (see `batch::jobs`); with one
/// test at a time on two cores, a cold class compiles on the second core
/// while the first runs tests.
pub(super) fn compilers(jobs: usize) -> usize {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    cpus.saturating_sub(jobs).max(1)
}

/// The hand-over between the compilers working ahead and the workers:
/// which units are taken by a worker, and which are being compiled.
pub(super) struct Ahead {
    state: Mutex<AheadState>,
    changed: Condvar,
    lookahead: usize,
}

struct AheadState {
    /// Units before this one have been taken by a worker.
    taken: usize,
    /// The next unit a compiler takes.
    next: usize,
    /// Per unit: a compiler is building it now.
    busy: Vec<bool>,
    /// The workers are gone: nothing more is needed.
    closed: bool,
}

/// How often a waiting thread looks at the cancel flag.
const POLL: Duration = Duration::from_millis(50);

impl Ahead {
    pub(super) fn new(units: usize, lookahead: usize) -> Ahead {
        Ahead {
            state: Mutex::new(AheadState {
                taken: 0,
                next: 0,
                busy: vec![false; units],
                closed: false,
            }),
            changed: Condvar::new(),
            lookahead,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, AheadState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next unit to compile ahead, waiting while the compilers are far
    /// enough ahead; `None` when there is nothing left to do.
    pub(super) fn next_to_compile(&self, cancel: &AtomicBool) -> Option<usize> {
        let mut st = self.lock();
        loop {
            if st.closed || cancel.load(Ordering::SeqCst) {
                return None;
            }
            // What a worker has taken, it compiles itself.
            st.next = st.next.max(st.taken);
            if st.next >= st.busy.len() {
                return None;
            }
            if st.next < st.taken + self.lookahead {
                let u = st.next;
                st.next += 1;
                st.busy[u] = true;
                return Some(u);
            }
            st = self
                .changed
                .wait_timeout(st, POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Unit `u` is compiled (or failed to: the worker will see).
    pub(super) fn compiled(&self, u: usize) {
        self.lock().busy[u] = false;
        self.changed.notify_all();
    }

    /// A worker takes unit `u`: it waits for a compile of it under way,
    /// rather than compiling the same source at the same time.
    pub(super) fn claim(&self, u: usize, cancel: &AtomicBool) {
        let mut st = self.lock();
        st.taken = st.taken.max(u + 1);
        self.changed.notify_all();
        while st.busy.get(u).copied().unwrap_or(false) && !cancel.load(Ordering::SeqCst) {
            st = self
                .changed
                .wait_timeout(st, POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }
}
