//! The one worker pool of the judge: a submission's tests (`judge`) and a
//! class's submissions (`batch`) are both spread over it.
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
    mut consume: impl FnMut(M),
) {
    let workers = jobs.clamp(1, count.max(1));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<M>();
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || {
                loop {
                    if stop() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= count {
                        break;
                    }
                    work(i, &tx);
                }
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
}
