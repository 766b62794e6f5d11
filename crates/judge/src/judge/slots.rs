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

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

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
    /// Tickets of the runs waiting for a slot, in the order they asked.
    runs: Queue,
    /// Tickets of the judgings waiting to be admitted.
    judgings: Queue,
}

/// A first come, first served queue of tickets, each with the condition
/// variable its holder sleeps on.
#[derive(Debug, Default)]
struct Queue {
    /// The next ticket handed out.
    next: u64,
    waiting: BTreeMap<u64, Arc<Condvar>>,
}

impl Queue {
    fn ticket(&mut self) -> (u64, Arc<Condvar>) {
        let t = self.next;
        self.next += 1;
        let wake = Arc::new(Condvar::new());
        self.waiting.insert(t, Arc::clone(&wake));
        (t, wake)
    }

    fn first(&self, ticket: u64) -> bool {
        self.waiting
            .first_key_value()
            .is_some_and(|(t, _)| *t == ticket)
    }

    /// The first in line's condition variable, to wake it.
    fn head(&self) -> Option<Arc<Condvar>> {
        self.waiting.first_key_value().map(|(_, c)| Arc::clone(c))
    }
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

/// Waiters to wake once the state's lock is released (woken under it, they
/// would only wait for the lock).
#[must_use]
struct Wake([Option<Arc<Condvar>>; 2]);

impl Wake {
    fn now(self) {
        for c in self.0.into_iter().flatten() {
            c.notify_one();
        }
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
            |st| st.busy += 1,
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

    /// A lent slot lets the next run start; taking it back does not wait,
    /// and then no run starts until the busy ones are under `n` again.
    #[test]
    fn a_lent_slot_lets_the_next_run_start_and_comes_back_at_once() {
        let slots = Slots::new(1);
        let a = slots.take(None).expect("a");
        assert_eq!(slots.counts(), (1, 0, 0));
        assert!(a.lend());
        assert!(!a.lend(), "lent twice");
        assert_eq!(slots.counts(), (0, 1, 0));
        let b = slots.take(None).expect("b");
        assert_eq!(slots.counts(), (1, 1, 0));
        a.reclaim();
        a.reclaim();
        assert_eq!(slots.counts(), (2, 0, 0));
        // Two busy, one allowed: a third waits until two are gone.
        let third = std::thread::scope(|s| {
            let waiter = s.spawn(|| slots.take(None).map(|_| "served"));
            while slots.lock().runs.waiting.is_empty() {
                std::thread::yield_now();
            }
            // It holds a ticket and was not served: nothing freed yet.
            assert_eq!(slots.counts(), (2, 0, 0));
            drop(b);
            assert_eq!(slots.counts(), (1, 0, 0));
            assert_eq!(slots.lock().runs.waiting.len(), 1);
            drop(a);
            waiter.join().expect("waiter")
        });
        assert_eq!(third, Some("served"));
        assert_eq!(slots.counts(), (0, 0, 0));
    }

    /// At most `3n` runs are lent: the next one keeps its slot, and may
    /// lend it once a lent run is over.
    #[test]
    fn at_most_three_lent_per_slot() {
        let slots = Slots::new(1);
        assert_eq!(slots.most_alive(), 4);
        let lent: Vec<Slot<'_>> = (0..3)
            .map(|_| {
                let s = slots.take(None).expect("slot");
                assert!(s.lend());
                s
            })
            .collect();
        let fourth = slots.take(None).expect("fourth");
        assert!(!fourth.lend());
        assert_eq!(slots.counts(), (1, 3, 0));
        let mut lent = lent;
        drop(lent.pop());
        assert_eq!(slots.counts(), (1, 2, 0));
        assert!(fourth.lend());
        assert_eq!(slots.counts(), (0, 3, 0));
        drop(fourth);
        drop(lent);
        assert_eq!(slots.counts(), (0, 0, 0));
    }

    /// `n` judgings at once, one more for each run lent.
    #[test]
    fn a_lent_run_admits_one_more_judging() {
        let slots = Slots::new(1);
        let first = slots.admit(None).expect("first");
        assert_eq!(slots.counts(), (0, 0, 1));
        let run = slots.take(None).expect("run");
        std::thread::scope(|s| {
            let second = s.spawn(|| slots.admit(None).is_some());
            while slots.lock().judgings.waiting.is_empty() {
                std::thread::yield_now();
            }
            // Its ticket is in and it was not admitted.
            assert_eq!(slots.counts(), (1, 0, 1));
            assert!(run.lend());
            assert!(second.join().expect("second"));
        });
        // The second judging is over (its admission was dropped).
        assert_eq!(slots.counts(), (0, 1, 1));
        drop(run);
        drop(first);
        assert_eq!(slots.counts(), (0, 0, 0));
        let cancel = AtomicBool::new(true);
        assert!(slots.admit(Some(&cancel)).is_none());
    }

    /// However threads take, lend and give back slots, the runs not lent
    /// never exceed `n` (no run takes a lent slot back here) and every
    /// thread is served.
    #[test]
    fn lending_never_lets_more_than_n_compute() {
        let slots = Slots::new(2);
        let (busy, most, served) = (
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        );
        std::thread::scope(|s| {
            for t in 0..8 {
                let (slots, busy, most, served) = (&slots, &busy, &most, &served);
                s.spawn(move || {
                    for k in 0..30 {
                        let slot = slots.take(None).expect("slot");
                        let now = busy.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        // Counted down before the slot is: the count here
                        // is never above the slots' own.
                        busy.fetch_sub(1, Ordering::SeqCst);
                        let lent = (t + k) % 3 != 0 && slot.lend();
                        if !lent {
                            let now = busy.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                        }
                        std::thread::yield_now();
                        if !lent {
                            busy.fetch_sub(1, Ordering::SeqCst);
                        }
                        drop(slot);
                        served.fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(served.load(Ordering::SeqCst), 240);
        assert!(most.load(Ordering::SeqCst) <= 2, "{most:?}");
        assert_eq!(slots.counts(), (0, 0, 0));
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
            while slots.lock().runs.waiting.is_empty() {
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

    /// A slot given back wakes the first in line only, not every waiter.
    #[test]
    fn a_slot_given_back_wakes_only_the_first_in_line() {
        let slots = Slots::new(1);
        let held = slots.take(None).expect("held");
        std::thread::scope(|s| {
            let waiters: Vec<_> = (0..3)
                .map(|_| s.spawn(|| slots.take(None).map(drop).is_some()))
                .collect();
            while slots.lock().runs.waiting.len() < 3 {
                std::thread::yield_now();
            }
            {
                let st = slots.lock();
                // Nothing free: nobody to wake.
                assert_eq!(st.to_wake().0.iter().flatten().count(), 0);
            }
            let mut st = slots.lock();
            st.busy -= 1;
            let first = st.runs.head().expect("a first in line");
            let wake = st.to_wake();
            let woken: Vec<_> = wake.0.iter().flatten().collect();
            assert_eq!(woken.len(), 1, "one waiter woken of three");
            assert!(Arc::ptr_eq(woken[0], &first), "and it is the first in line");
            st.busy += 1;
            drop(st);
            drop(held);
            for w in waiters {
                assert!(w.join().expect("waiter"));
            }
        });
        assert_eq!(slots.counts(), (0, 0, 0));
    }

    /// The threads beyond `N` wait while nothing is lent, one more works
    /// for each run lent, and all are let go when the work is over.
    #[test]
    fn extra_threads_work_only_while_runs_are_lent() {
        let slots = Slots::new(1);
        assert_eq!(slots.jobs(), 1);
        let over = AtomicBool::new(false);
        let done = || over.load(Ordering::SeqCst);
        let passed = AtomicUsize::new(0);
        std::thread::scope(|s| {
            let (slots, passed, done) = (&slots, &passed, &done);
            let first = s.spawn(move || {
                slots.extra_may_work(0, done);
                passed.fetch_add(1, Ordering::SeqCst);
            });
            let second = s.spawn(move || {
                slots.extra_may_work(1, done);
                passed.fetch_add(1, Ordering::SeqCst);
            });
            // Nothing lent: neither may work. (Only a lend or the end can
            // let them go; the check below holds however long they wait.)
            std::thread::sleep(Duration::from_millis(20));
            assert_eq!(passed.load(Ordering::SeqCst), 0);
            let run = slots.take(None).expect("run");
            assert!(run.lend());
            first.join().expect("first extra");
            assert_eq!(passed.load(Ordering::SeqCst), 1, "one lent: one extra");
            over.store(true, Ordering::SeqCst);
            slots.wake_extras();
            second.join().expect("second extra");
            assert_eq!(passed.load(Ordering::SeqCst), 2);
            drop(run);
        });
        // Past the end, no wait at all.
        slots.extra_may_work(5, &|| true);
    }
}
