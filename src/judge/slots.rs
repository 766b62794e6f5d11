//! The test runs a batch may have going at once, shared by every judging
//! of the batch.
//!
//! `--jobs N` caps the tests running at any moment, whatever runs them. A
//! batch judges several submissions side by side, and each may run its
//! own tests side by side too: that is what lets the groups of a program
//! that sleeps until the wall-time limit overlap each other and the rest
//! of the class, instead of costing one wall-time limit after another.
//! Every judging takes a slot here for each test it runs, so the sum stays
//! at `N` however the threads are spread.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// A counting semaphore of test runs, served in the order asked.
///
/// First come, first served matters: a thread that has just given a slot
/// back and asks again at once would otherwise usually win it over the
/// threads already waiting (they must first be woken), so one submission
/// that times out test after test could keep every slot to itself while
/// the rest of the class waits, instead of overlapping with it.
#[derive(Debug)]
pub struct Slots {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug)]
struct State {
    free: usize,
    /// The next ticket handed out.
    next: u64,
    /// Tickets of the threads waiting, in the order they asked.
    waiting: BTreeSet<u64>,
}

/// A slot taken; given back when dropped.
pub struct Slot<'a> {
    slots: &'a Slots,
}

/// How often a waiting thread looks at the cancel flag.
const POLL: Duration = Duration::from_millis(50);

impl Slots {
    /// `n` runs at once (at least one).
    pub fn new(n: usize) -> Slots {
        Slots {
            state: Mutex::new(State {
                free: n.max(1),
                next: 0,
                waiting: BTreeSet::new(),
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for a free slot, after those who asked before; `None` when
    /// `cancel` is set meanwhile.
    pub fn take(&self, cancel: Option<&AtomicBool>) -> Option<Slot<'_>> {
        let cancelled = || cancel.is_some_and(|c| c.load(Ordering::SeqCst));
        let mut st = self.lock();
        let ticket = st.next;
        st.next += 1;
        st.waiting.insert(ticket);
        loop {
            if cancelled() {
                st.waiting.remove(&ticket);
                // The next in line may be served now.
                self.changed.notify_all();
                return None;
            }
            if st.free > 0 && st.waiting.first() == Some(&ticket) {
                st.free -= 1;
                st.waiting.remove(&ticket);
                if st.free > 0 {
                    self.changed.notify_all();
                }
                return Some(Slot { slots: self });
            }
            st = self
                .changed
                .wait_timeout(st, POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.slots.lock().free += 1;
        self.slots.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// However many threads ask, no more than `n` hold a slot at once, and
    /// every one gets its turn.
    #[test]
    fn never_more_than_n_at_once() {
        let slots = Slots::new(2);
        let (now, most, served) = (
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        );
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..20 {
                        let slot = slots.take(None);
                        assert!(slot.is_some());
                        let held = now.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(held, Ordering::SeqCst);
                        std::thread::yield_now();
                        now.fetch_sub(1, Ordering::SeqCst);
                        served.fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(served.load(Ordering::SeqCst), 160);
        assert!(most.load(Ordering::SeqCst) <= 2, "{most:?}");
    }

    #[test]
    fn a_cancelled_wait_ends_without_a_slot() {
        let slots = Slots::new(1);
        let held = slots.take(None);
        assert!(held.is_some());
        let cancel = AtomicBool::new(true);
        assert!(slots.take(Some(&cancel)).is_none());
        drop(held);
        assert!(slots.take(Some(&cancel)).is_none());
        assert!(slots.take(None).is_some());
    }

    /// A thread that gives its slot back and asks again at once goes
    /// after the one already waiting.
    #[test]
    fn served_in_the_order_asked() {
        let slots = Slots::new(1);
        let order = Mutex::new(Vec::new());
        let first = slots.take(None);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let slot = slots.take(None);
                order.lock().expect("order").push("waiter");
                drop(slot);
            });
            // Wait until the other thread holds its ticket.
            while slots.lock().waiting.is_empty() {
                std::thread::yield_now();
            }
            drop(first);
            let again = slots.take(None);
            order.lock().expect("order").push("again");
            drop(again);
            waiter.join().expect("waiter");
        });
        assert_eq!(*order.lock().expect("order"), ["waiter", "again"]);
    }
}
