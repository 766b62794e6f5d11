//! The one worker pool of the judge: a submission's tests (`judge`), a
//! class's submissions (`batch`) and a problem's mutants (`mutants`) are
//! all spread over it.
//!
//! `jobs` scoped threads take the next index in order until `stop` says
//! so or none is left; each sends what it has to say over a channel, and
//! the calling thread consumes the messages as they come (so it alone owns
//! the sink, the journal, the report order). Work that is under way when
//! `stop` turns true finishes; no new index starts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work(i, tx)` for every `i` in `0..count` on up to `jobs` threads,
/// handing every message sent on `tx` to `consume` on this thread.
pub fn run<M: Send>(
    jobs: usize,
    count: usize,
    stop: &(dyn Fn() -> bool + Sync),
    work: &(dyn Fn(usize, &mpsc::Sender<M>) + Sync),
    consume: impl FnMut(M),
) {
    run_gated(jobs, jobs, &Open, count, stop, work, consume);
}

/// Says when the workers of a pool beyond its first ones may take another
/// index.
pub trait Gate: Sync {
    /// Returns once the extra worker of `rank` (0 for the first beyond the
    /// ones always working) may take another index, or `done` holds.
    fn open(&self, rank: usize, done: &dyn Fn() -> bool);
    /// Wakes the workers in [`Gate::open`] to look at `done` again.
    fn wake(&self);
}

/// Every worker works.
struct Open;

impl Gate for Open {
    fn open(&self, _: usize, _: &dyn Fn() -> bool) {}
    fn wake(&self) {}
}

/// [`run`] on up to `most` threads of which the first `always` take the
/// next index whenever they are free and the others only when `gate` lets
/// them: threads that are there for when work waits on something outside
/// the pool (a test that sleeps lends its slot), without competing for
/// the work the first ones can do.
pub fn run_gated<M: Send>(
    always: usize,
    most: usize,
    gate: &dyn Gate,
    count: usize,
    stop: &(dyn Fn() -> bool + Sync),
    work: &(dyn Fn(usize, &mpsc::Sender<M>) + Sync),
    mut consume: impl FnMut(M),
) {
    let workers = most.max(always).clamp(1, count.max(1));
    let always = always.max(1);
    let next = AtomicUsize::new(0);
    let done = || stop() || next.load(Ordering::SeqCst) >= count;
    let (tx, rx) = mpsc::channel::<M>();
    std::thread::scope(|s| {
        for k in 0..workers {
            let tx = tx.clone();
            let (next, done) = (&next, &done);
            s.spawn(move || {
                loop {
                    if let Some(rank) = k.checked_sub(always) {
                        gate.open(rank, done);
                    }
                    if stop() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= count {
                        break;
                    }
                    work(i, &tx);
                }
                // No index left (or stopped): the gated workers end too.
                gate.wake();
            });
        }
        drop(tx);
        for message in rx {
            consume(message);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn every_index_runs_once_and_every_message_arrives() {
        let mut seen = Vec::new();
        run(3, 50, &|| false, &|i, tx| tx.send(i).expect("send"), |i| {
            seen.push(i)
        });
        seen.sort();
        assert_eq!(seen, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn no_index_starts_after_stop() {
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        run(
            1,
            10,
            &|| stop.load(Ordering::SeqCst),
            &|i, tx| {
                if i == 3 {
                    stop.store(true, Ordering::SeqCst);
                }
                tx.send(i).expect("send");
            },
            |i| seen.push(i),
        );
        assert_eq!(seen, vec![0, 1, 2, 3]);
    }

    #[test]
    fn no_work_and_no_jobs_still_return() {
        let mut n = 0;
        run::<()>(0, 0, &|| false, &|_, _| {}, |_| n += 1);
        assert_eq!(n, 0);
    }

    /// A gate that is never open: only the always-working threads work,
    /// every index still runs once, and the pool ends (the gated threads
    /// are let go when the work is over).
    #[test]
    fn gated_workers_stay_out_until_let_in() {
        struct Shut(std::sync::Mutex<()>, std::sync::Condvar);
        impl Gate for Shut {
            fn open(&self, _: usize, done: &dyn Fn() -> bool) {
                let mut g = self.0.lock().expect("gate");
                while !done() {
                    g = self.1.wait(g).expect("gate");
                }
            }
            fn wake(&self) {
                drop(self.0.lock().expect("gate"));
                self.1.notify_all();
            }
        }
        let gate = Shut(std::sync::Mutex::new(()), std::sync::Condvar::new());
        let workers = std::sync::Mutex::new(std::collections::HashSet::new());
        let mut seen = Vec::new();
        run_gated(
            2,
            8,
            &gate,
            40,
            &|| false,
            &|i, tx| {
                workers
                    .lock()
                    .expect("workers")
                    .insert(std::thread::current().id());
                tx.send(i).expect("send");
            },
            |i| seen.push(i),
        );
        seen.sort();
        assert_eq!(seen, (0..40).collect::<Vec<_>>());
        assert!(workers.lock().expect("workers").len() <= 2);
    }
}
