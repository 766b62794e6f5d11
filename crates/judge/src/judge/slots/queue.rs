//! The first come, first served queues of [`super::Slots`]: a ticket per
//! waiter, each sleeping on a condition variable of its own, so that a
//! change wakes only the first in line.

use std::collections::BTreeMap;
use std::sync::{Arc, Condvar};

/// A first come, first served queue of tickets, each with the condition
/// variable its holder sleeps on.
#[derive(Debug, Default)]
pub(super) struct Queue {
    /// The next ticket handed out.
    next: u64,
    pub(super) waiting: BTreeMap<u64, Arc<Condvar>>,
}

impl Queue {
    pub(super) fn ticket(&mut self) -> (u64, Arc<Condvar>) {
        let t = self.next;
        self.next += 1;
        let wake = Arc::new(Condvar::new());
        self.waiting.insert(t, Arc::clone(&wake));
        (t, wake)
    }

    pub(super) fn first(&self, ticket: u64) -> bool {
        self.waiting
            .first_key_value()
            .is_some_and(|(t, _)| *t == ticket)
    }

    /// The first in line's condition variable, to wake it.
    pub(super) fn head(&self) -> Option<Arc<Condvar>> {
        self.waiting.first_key_value().map(|(_, c)| Arc::clone(c))
    }
}

/// Waiters to wake once the state's lock is released (woken under it, they
/// would only wait for the lock).
#[must_use]
pub(super) struct Wake(pub(super) [Option<Arc<Condvar>>; 2]);

impl Wake {
    pub(super) fn now(self) {
        for c in self.0.into_iter().flatten() {
            c.notify_one();
        }
    }
}
