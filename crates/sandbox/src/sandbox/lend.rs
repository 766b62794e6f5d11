//! Telling the caller whether a run is using a CPU.
//!
//! A batch runs at most `--jobs` tests at once so that runs do not compete
//! for the CPUs. A run that sleeps until its wall-time limit (or blocks on
//! something that never comes) competes for nothing, yet held its share
//! for the whole limit: a class where a third of the programs sleep spent
//! most of its time with every share held by a sleeper. The watcher
//! already samples the run's CPU time to enforce the limit, so it also
//! tells a [`Lender`] when the run has been seen idle over a window and
//! when it computes again; what the caller does with that (the judge lends
//! the run's slot to another test) is none of the sandbox's business.
//!
//! Idle means that over a whole window the run neither used a CPU nor was
//! ready to use one and waited: a program starved on a loaded machine
//! waits on the run queue (see [`super::starved`]) and is busy, not idle,
//! so a busy machine does not lend out slots of programs that compute.
//! Nothing here changes a measurement or a limit.

use std::time::Duration;

/// Told by the watcher of a run when the run is seen idle, and when it is
/// seen computing again after that. Calls alternate, starting with
/// [`Lender::idle`] (an `idle` that returned false does not count); neither
/// may block (the watcher enforces the limits meanwhile).
pub trait Lender {
    /// The run used (almost) no CPU, nor waited for one, over a window.
    /// False when the caller cannot act on it now: the watcher then says
    /// it again after the next idle window.
    fn idle(&self) -> bool;
    /// The run computes again after [`Lender::idle`].
    fn busy(&self);
}

/// How long a run is watched before it is called idle or busy: long
/// enough that the start of a program (loading, an interpreter's imports)
/// is not idleness, short enough that a sleeper's slot is lent within a
/// fraction of a second.
pub const WINDOW: Duration = Duration::from_millis(150);

/// A run whose CPU time and run-queue wait grow by less than this part of
/// a window over it is idle (1/10: 15 ms of 150, more than the tick of
/// `/proc`'s CPU figures, so a program that computes is never idle by
/// rounding).
const IDLE_PART: u32 = 10;

/// The watcher's record of the current window.
#[derive(Debug, Clone)]
pub(super) struct Idleness {
    /// When the window began (wall time since the run started).
    from: Duration,
    /// CPU time plus run-queue wait at that moment.
    base: Duration,
    /// What the lender was last told: idle or not.
    idle: bool,
}

impl Idleness {
    pub(super) fn new() -> Idleness {
        Idleness {
            from: Duration::ZERO,
            base: Duration::ZERO,
            idle: false,
        }
    }

    /// Looks at the run at wall time `now` (since it started): `active`
    /// reads its CPU time plus its longest run-queue wait so far, and is
    /// called only when a window is over. Returns the change to tell: idle
    /// (`Some(true)`), busy again (`Some(false)`), or none.
    pub(super) fn observe(
        &mut self,
        now: Duration,
        active: &mut dyn FnMut() -> Duration,
    ) -> Option<bool> {
        let span = now.saturating_sub(self.from);
        if span < WINDOW {
            return None;
        }
        let used = active();
        let idle = used.saturating_sub(self.base) < span / IDLE_PART;
        self.from = now;
        self.base = used;
        (idle != std::mem::replace(&mut self.idle, idle)).then_some(idle)
    }

    /// [`Idleness::observe`], telling `lender` of a change.
    pub(super) fn tell(
        &mut self,
        lender: Option<&dyn Lender>,
        now: Duration,
        active: &mut dyn FnMut() -> Duration,
    ) {
        let Some(lender) = lender else {
            return;
        };
        match self.observe(now, active) {
            Some(true) => {
                // Not taken: still busy as far as the lender knows.
                self.idle = lender.idle();
            }
            Some(false) => lender.busy(),
            None => {}
        }
    }
}

// The recording lender of the integration tests (tests/lending.rs).
#[cfg(test)]
#[path = "../../../../tests/common/lender.rs"]
mod lender;

#[cfg(test)]
mod tests {
    use super::lender::Heard;
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_sleeper_is_idle_after_its_start_and_told_once() {
        let mut w = Idleness::new();
        let mut read = 0;
        // Within the first window nothing is read or told.
        assert_eq!(
            w.observe(ms(100), &mut || {
                read += 1;
                ms(0)
            }),
            None
        );
        assert_eq!(read, 0);
        // Its start used 40 ms of CPU: busy, which is no change to tell.
        assert_eq!(w.observe(ms(160), &mut || ms(40)), None);
        // Then it sleeps: 2 ms in 200 ms is idle, told once.
        assert_eq!(w.observe(ms(360), &mut || ms(42)), Some(true));
        assert_eq!(w.observe(ms(520), &mut || ms(42)), None);
        assert_eq!(w.observe(ms(3000), &mut || ms(43)), None);
    }

    #[test]
    fn computing_or_waiting_for_a_cpu_is_not_idleness() {
        let mut w = Idleness::new();
        // A spinner: a full CPU.
        assert_eq!(w.observe(ms(150), &mut || ms(150)), None);
        // Starved: 5 ms of CPU, but 100 ms waiting on the run queue.
        assert_eq!(w.observe(ms(300), &mut || ms(255)), None);
        // It sleeps, then computes again: told idle, then busy.
        assert_eq!(w.observe(ms(450), &mut || ms(256)), Some(true));
        assert_eq!(w.observe(ms(600), &mut || ms(300)), Some(false));
        assert_eq!(w.observe(ms(750), &mut || ms(400)), None);
    }

    #[test]
    fn the_lender_hears_alternating_changes() {
        let heard = Heard::default();
        let mut w = Idleness::new();
        let cpu = [10, 10, 10, 100, 100, 200];
        for (k, c) in cpu.iter().enumerate() {
            let now = ms(150 * (k as u64 + 1));
            w.tell(Some(&heard), now, &mut || ms(*c));
        }
        // Without a lender nothing is read.
        w.tell(None, ms(5000), &mut || unreachable!());
        assert_eq!(*heard.0.borrow(), ["idle", "busy", "idle", "busy"]);
    }

    /// A lender that could not take an idle run in is told again at the
    /// next idle window, and not told `busy` for a change it never took.
    #[test]
    fn an_idleness_not_taken_is_told_again() {
        use std::cell::{Cell, RefCell};
        struct Full(Cell<u32>, RefCell<Vec<&'static str>>);
        impl Lender for Full {
            fn idle(&self) -> bool {
                self.0.set(self.0.get() + 1);
                self.1.borrow_mut().push("idle");
                // Taken from the third time on.
                self.0.get() >= 3
            }
            fn busy(&self) {
                self.1.borrow_mut().push("busy");
            }
        }
        let full = Full(Cell::new(0), RefCell::new(Vec::new()));
        let mut w = Idleness::new();
        // Idle, idle (both refused), computing (nothing to take back),
        // idle (taken), idle, idle (nothing new), computing.
        let cpu = [1, 2, 100, 101, 102, 103, 200];
        for (k, c) in cpu.iter().enumerate() {
            let now = ms(150 * (k as u64 + 1));
            w.tell(Some(&full), now, &mut || ms(*c));
        }
        assert_eq!(*full.1.borrow(), ["idle", "idle", "idle", "busy"]);
        assert_eq!(full.0.get(), 3);
    }
}
