//! The idleness limit of a played game: how long the judge waits for the
//! submission's next line before it calls the submission idle (`TLE`, "did
//! you flush?").
//!
//! The limit is wall time, and on a loaded machine a submission that is
//! computing its move may spend most of that time waiting for a CPU. The
//! sandbox's wall limit already takes that wait off (`sandbox::starved`);
//! the idleness clock does the same, so that a busy machine does not turn
//! a slow move into a false `TLE`. The wait is looked up lazily, as the
//! wall limit does it: reading `/proc` at every move would cost more than
//! the move, so a baseline is read once a wait passes half the limit, and
//! only the wait from there on is taken off. A submission that sleeps or
//! blocks never waits for a CPU and is stopped at the limit as before; one
//! that is starved is not blamed for the wait after the baseline, and the
//! first half of the limit is more than any starved move needs to be seen
//! as one.

use std::time::Duration;

/// The clock of one wait for the submission.
#[derive(Debug, Clone)]
pub(super) struct Idleness {
    limit: Duration,
    /// The submission's longest run-queue wait when the baseline was read.
    baseline: Option<Duration>,
}

impl Idleness {
    pub(super) fn new(limit: Duration) -> Idleness {
        Idleness {
            limit,
            baseline: None,
        }
    }

    /// A new wait begins (the submission made progress).
    pub(super) fn restart(&mut self) {
        self.baseline = None;
    }

    /// Whether the submission has been idle past the limit after `elapsed`
    /// of wall time in this wait; `run_queue_wait` reads the submission's
    /// longest wait for a CPU so far (`None`: unknown, nothing is taken
    /// off). It is called only once the wait passed half the limit.
    pub(super) fn over(
        &mut self,
        elapsed: Duration,
        run_queue_wait: &mut dyn FnMut() -> Option<Duration>,
    ) -> bool {
        if elapsed < self.limit / 2 {
            return false;
        }
        let Some(base) = self.baseline else {
            self.baseline = Some(run_queue_wait().unwrap_or_default());
            return elapsed > self.limit;
        };
        if elapsed <= self.limit {
            return false;
        }
        let starved = run_queue_wait().map_or(Duration::ZERO, |w| w.saturating_sub(base));
        elapsed.saturating_sub(starved) > self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Duration = Duration::from_secs(3);

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn a_sleeper_is_idle_at_the_limit() {
        let mut clock = Idleness::new(LIMIT);
        let asked = std::cell::Cell::new(0);
        let mut never_waits = || {
            asked.set(asked.get() + 1);
            Some(Duration::ZERO)
        };
        assert!(!clock.over(secs(1.0), &mut never_waits));
        assert_eq!(asked.get(), 0, "the wait is not read before half the limit");
        assert!(!clock.over(secs(2.0), &mut never_waits));
        assert!(!clock.over(secs(3.0), &mut never_waits));
        assert!(clock.over(secs(3.1), &mut never_waits));
    }

    #[test]
    fn time_waiting_for_a_cpu_is_not_idleness() {
        let mut clock = Idleness::new(LIMIT);
        // The baseline is read at 1.6 s (its run-queue wait so far: 1 s);
        // from there on it waits for a CPU all the time.
        let mut wait = secs(1.0);
        assert!(!clock.over(secs(1.6), &mut || Some(wait)));
        for t in [3.5, 10.0, 60.0] {
            wait = secs(1.0) + secs(t - 1.6);
            assert!(!clock.over(secs(t), &mut || Some(wait)), "at {t} s");
        }
        // It wakes up but writes nothing: the time it is awake counts.
        wait = secs(1.0) + secs(60.0 - 1.6);
        assert!(!clock.over(secs(61.0), &mut || Some(wait)));
        assert!(clock.over(secs(64.0), &mut || Some(wait)));
    }

    #[test]
    fn a_starved_move_keeps_the_first_half_and_progress_restarts() {
        let mut clock = Idleness::new(LIMIT);
        // Half starved after the baseline: 4 s elapsed, 1 s of it waiting.
        assert!(!clock.over(secs(2.0), &mut || Some(secs(5.0))));
        assert!(!clock.over(secs(4.0), &mut || Some(secs(6.0))));
        assert!(clock.over(secs(4.5), &mut || Some(secs(6.0))));
        // A move resets the clock and its baseline.
        clock.restart();
        let mut asked = false;
        assert!(!clock.over(secs(1.0), &mut || {
            asked = true;
            None
        }));
        assert!(!asked);
        // The wait cannot be read (the run is gone): nothing is taken off.
        assert!(!clock.over(secs(2.0), &mut || None));
        assert!(clock.over(secs(3.5), &mut || None));
    }
}
