//! The scheduler's promises: never more than `N` computing, first come
//! first served, lent slots and the threads beyond `N`.

use super::*;
use std::sync::Arc;
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
