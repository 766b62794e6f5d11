//! The test runs a batch may have going at once, shared by every judging
//! of the batch.
//!
//! `--jobs N` caps the tests *using a CPU* at any moment, whatever runs
//! them. A batch judges several submissions side by side, and each may run
//! its own tests side by side too: that is what lets the groups of a
//! program that sleeps until the wall-time limit overlap each other and
//! the rest of the class, instead of costing one wall-time limit after
//! another. Every judging takes a slot here for each test it runs, so the
//! sum stays at `N` however the threads are spread.
//!
//! A run that sleeps (or blocks) uses no CPU, yet it would hold its slot
//! until its wall-time limit. The sandbox's watcher tells the run's
//! [`Slot`] when it has been idle over a window (`sandbox::Lender`); the
//! slot is then *lent* back, and the next test starts while the sleeper
//! carries on. A lent run that computes again takes its slot back at once,
//! without waiting (its program is running: it cannot be made to wait),
//! and no new test starts until the runs using a CPU are below `N` again.
//! At most `3N` runs may be lent at once, so at most `4N` runs are alive
//! at once: that bounds the memory and processes of runs that sleep. The
//! measurements do not change: a verdict comes from a run's CPU time, and
//! the wall-time limit only stops programs that sleep, as before.
//!
//! Judgings are admitted here too: `N` of them at once, and one more for
//! each run lent, so that a class whose sleepers lend their slots has
//! other submissions to give them to, while a class of programs that
//! compute judges `N` submissions at once as it always did.

mod queue;

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use queue::{Queue, Wake};

/// A counting semaphore of test runs, served in the order asked, whose
/// idle holders lend their slots back.
///
/// First come, first served matters: a thread that has just given a slot
/// back and asks again at once would otherwise usually win it over the
/// threads already waiting (they must first be woken), so one submission
/// that times out test after test could keep every slot to itself while
/// the rest of the class waits, instead of overlapping with it.
///
/// Each waiter sleeps on a condition variable of its own, and a change
/// wakes only the first in line of a queue that may be served: with one
/// shared condition variable every change woke every waiter (up to `4N`
/// test threads per judging), of whom all but one went back to sleep, and
/// on a thousand one-millisecond tests those wake-ups were most of the
/// judge's own cost.
#[derive(Debug)]
pub struct Slots {
    state: Mutex<State>,
    /// Told when a run is lent (and when a pool's work is over): the
    /// threads beyond the first `N` of a judging wait on it (see
    /// [`Slots::extra_may_work`]).
    lent_more: Condvar,
}

#[derive(Debug)]
struct State {
    /// `N`: runs using a CPU at once.
    jobs: usize,
    /// Runs holding a slot and not lending it (may exceed `jobs` for a
    /// while: a lent run that computes again takes its slot back at once).
    busy: usize,
    /// Runs alive whose slot is lent (seen idle).
    lent: usize,
    /// At most this many lent at once.
    most_lent: usize,
    /// Judgings admitted and not over.
    judging: usize,
    /// Runs that have taken a slot so far.
    started: usize,
    /// Tickets of the runs waiting for a slot, in the order they asked.
    runs: Queue,
    /// Tickets of the judgings waiting to be admitted.
    judgings: Queue,
}

impl State {
    fn runs_ready(&self) -> bool {
        self.busy < self.jobs
    }

    fn judgings_ready(&self) -> bool {
        self.judging < self.jobs + self.lent
    }

    /// The waiters to wake after a change: the first in line of each queue
    /// that may be served now (at most two; none when nobody waits).
    fn to_wake(&self) -> Wake {
        Wake([
            self.runs_ready().then(|| self.runs.head()).flatten(),
            self.judgings_ready()
                .then(|| self.judgings.head())
                .flatten(),
        ])
    }
}

/// A slot taken; given back when dropped. It is the run's
/// [`crate::sandbox::Lender`]: pass it to `Runner::run_lending`.
pub struct Slot<'a> {
    slots: &'a Slots,
    /// Whether it is lent now.
    lent: Cell<bool>,
}

/// A judging admitted; over when dropped.
pub struct Admission<'a> {
    slots: &'a Slots,
}

/// How often a waiting thread looks at the cancel flag.
const POLL: Duration = Duration::from_millis(50);

/// How often a thread beyond `N` looks again without being told: only a
/// safety net, since a lend and the end of the work both wake it (and
/// looking every 50 ms, three such threads per judging woke sixty times a
/// second for nothing).
const EXTRA_POLL: Duration = Duration::from_secs(1);

/// How many runs may be lent per slot: with the `N` busy ones, at most
/// `4N` runs are alive at once.
const LENT_PER_SLOT: usize = 3;

impl Slots {
    /// `n` runs using a CPU at once (at least one).
    pub fn new(n: usize) -> Slots {
        let jobs = n.max(1);
        Slots {
            state: Mutex::new(State {
                jobs,
                busy: 0,
                lent: 0,
                most_lent: jobs * LENT_PER_SLOT,
                judging: 0,
                started: 0,
                runs: Queue::default(),
                judgings: Queue::default(),
            }),
            lent_more: Condvar::new(),
        }
    }

    /// The most runs alive at once (busy and lent): the threads worth
    /// having waiting for a slot.
    pub fn most_alive(&self) -> usize {
        let st = self.lock();
        st.jobs + st.most_lent
    }

    #[cfg(test)]
    fn counts(&self) -> (usize, usize, usize) {
        let st = self.lock();
        (st.busy, st.lent, st.judging)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until `ready` holds and `ticket` is first of the queue that
    /// `queue` picks, then runs `take` on the state; `None` (and out of
    /// the queue) when `cancel` is set meanwhile.
    fn wait_turn(
        &self,
        cancel: Option<&AtomicBool>,
        queue: fn(&mut State) -> &mut Queue,
        ready: fn(&State) -> bool,
        take: fn(&mut State),
    ) -> Option<()> {
        let cancelled = || cancel.is_some_and(|c| c.load(Ordering::SeqCst));
        let mut st = self.lock();
        let (ticket, wake) = queue(&mut st).ticket();
        loop {
            if cancelled() {
                queue(&mut st).waiting.remove(&ticket);
                // The next in line may be served now.
                let next = st.to_wake();
                drop(st);
                next.now();
                return None;
            }
            if ready(&st) && queue(&mut st).first(ticket) {
                queue(&mut st).waiting.remove(&ticket);
                take(&mut st);
                // The next in line too, if there is room for it.
                let next = st.to_wake();
                drop(st);
                next.now();
                return Some(());
            }
            // The timeout only looks at `cancel` again: every change that
            // may serve this ticket wakes it.
            st = wake
                .wait_timeout(st, POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Waits for a free slot, after those who asked before; `None` when
    /// `cancel` is set meanwhile.
    pub fn take(&self, cancel: Option<&AtomicBool>) -> Option<Slot<'_>> {
        self.wait_turn(
            cancel,
            |st| &mut st.runs,
            State::runs_ready,
            |st| {
                st.busy += 1;
                st.started += 1;
            },
        )?;
        Some(Slot {
            slots: self,
            lent: Cell::new(false),
        })
    }

    /// Waits until another judging may start (fewer than `N` plus the runs
    /// lent are under way), after those who asked before; `None` when
    /// `cancel` is set meanwhile.
    pub fn admit(&self, cancel: Option<&AtomicBool>) -> Option<Admission<'_>> {
        self.wait_turn(
            cancel,
            |st| &mut st.judgings,
            State::judgings_ready,
            |st| st.judging += 1,
        )?;
        Some(Admission { slots: self })
    }

    /// How many runs have taken a slot so far: what shows that a tool's
    /// work went through these slots.
    pub fn runs_started(&self) -> usize {
        self.lock().started
    }

    /// The runs of one judging that may use a CPU at once: the threads it
    /// keeps working whatever happens.
    pub fn jobs(&self) -> usize {
        self.lock().jobs
    }

    /// Waits until the judging thread of `rank` beyond the first `N` (see
    /// [`Slots::jobs`]) may start another test: while more than `rank`
    /// runs are lent, or `done` holds.
    ///
    /// A judging keeps `4N` threads so that a sleeping test's slot has a
    /// test to go to, but while nothing is lent the ones beyond `N` would
    /// only queue for slots: then every test given back hands its slot to
    /// another thread (first come, first served) instead of letting the
    /// thread that ran it carry on, a wake-up and a trip through the
    /// scheduler per test. Each lent run sets one more thread working, as
    /// each lets one more judging in (`admit`).
    ///
    /// `done` is looked at with the state locked; whoever makes it true
    /// must call [`Slots::wake_extras`] afterwards.
    pub fn extra_may_work(&self, rank: usize, done: &dyn Fn() -> bool) {
        let mut st = self.lock();
        while st.lent <= rank && !done() {
            st = self
                .lent_more
                .wait_timeout(st, EXTRA_POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Wakes the threads in [`Slots::extra_may_work`] to look at their
    /// `done` again.
    pub fn wake_extras(&self) {
        // Taken and released: a waiter that found `done` false is asleep
        // by now, so the notice reaches it.
        drop(self.lock());
        self.lent_more.notify_all();
    }
}

impl crate::judge::pool::Gate for Slots {
    fn open(&self, rank: usize, done: &dyn Fn() -> bool) {
        self.extra_may_work(rank, done);
    }

    fn wake(&self) {
        self.wake_extras();
    }
}

impl Slot<'_> {
    /// Lends the slot back while its run sleeps; false when it is lent
    /// already or `3N` runs are lent (it is then kept).
    pub fn lend(&self) -> bool {
        if self.lent.get() {
            return false;
        }
        let mut st = self.slots.lock();
        if st.lent >= st.most_lent {
            return false;
        }
        st.busy -= 1;
        st.lent += 1;
        self.lent.set(true);
        let next = st.to_wake();
        drop(st);
        next.now();
        self.slots.lent_more.notify_all();
        true
    }

    /// Takes a lent slot back, without waiting: the run computes again.
    pub fn reclaim(&self) {
        if !self.lent.replace(false) {
            return;
        }
        let mut st = self.slots.lock();
        st.lent -= 1;
        st.busy += 1;
    }
}

impl crate::sandbox::Lender for Slot<'_> {
    fn idle(&self) -> bool {
        self.lend()
    }

    fn busy(&self) {
        self.reclaim();
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut st = self.slots.lock();
        if self.lent.get() {
            st.lent -= 1;
        } else {
            st.busy -= 1;
        }
        let next = st.to_wake();
        drop(st);
        next.now();
    }
}

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        let mut st = self.slots.lock();
        st.judging -= 1;
        let next = st.to_wake();
        drop(st);
        next.now();
    }
}

#[cfg(test)]
mod tests;
