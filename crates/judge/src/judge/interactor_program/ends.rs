//! Which of the two connected runs ended first, as the kernel saw it.

use std::sync::Arc;
use std::time::Duration;

use crate::verdict::interactive::First;

/// Which of the two runs ended first, as one `poll` on both processes'
/// pidfds sees it. Each run's own watcher stamps its end when it notices
/// it, between samples of the run's usage; on a loaded machine one of them
/// may notice tens of milliseconds late, long enough for a submission that
/// crashes on the end of its input (a Java `Scanner` throwing once the
/// interactor has rejected and exited) to seem to have ended first, and
/// its `RTE` to stand instead of the interactor's `WA`. A single `poll`
/// that finds one process ended and the other alive orders them as the
/// kernel did. When it finds both ended (the judge was not scheduled in
/// between), it cannot tell, and the stamps decide as before.
pub(super) struct Ends {
    /// Each run's pid cell, published once the run started.
    pids: [Arc<std::sync::OnceLock<libc::pid_t>>; 2],
    /// The pidfds, opened as soon as the pids are known.
    fds: [Option<std::os::fd::OwnedFd>; 2],
    /// Set once one poll has seen an end (or a pid was already gone).
    seen: bool,
    /// The run that had ended when that poll saw only one; `None` when
    /// it saw both.
    pub(super) first: Option<First>,
}

impl Ends {
    /// In the order of [`Ends::WHO`].
    const WHO: [First; 2] = [First::Submission, First::Interactor];

    pub(super) fn new(
        sub: &Arc<std::sync::OnceLock<libc::pid_t>>,
        int: &Arc<std::sync::OnceLock<libc::pid_t>>,
    ) -> Ends {
        Ends {
            pids: [Arc::clone(sub), Arc::clone(int)],
            fds: [None, None],
            seen: false,
            first: None,
        }
    }

    /// Opens the pidfds not yet open, then waits up to `timeout` for
    /// either process to end, and records which one ended first if only
    /// one did. Returns how long the caller may then wait for a result:
    /// nothing after a poll, a moment while a pid is not yet published
    /// (not to miss an end), `timeout` once the order is settled.
    pub(super) fn wait(&mut self, timeout: Duration) -> Duration {
        use std::os::fd::{AsRawFd, FromRawFd};
        for (fd, pid) in self.fds.iter_mut().zip(&self.pids) {
            if fd.is_none()
                && !self.seen
                && let Some(&pid) = pid.get()
            {
                // SAFETY: pidfd_open takes a pid and flags and returns a
                // new descriptor or -1.
                let r = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
                if r >= 0 {
                    // SAFETY: the kernel just made this descriptor; ours.
                    *fd = Some(unsafe { std::os::fd::OwnedFd::from_raw_fd(r as i32) });
                } else {
                    // Already gone (reaped): no exact order for this test.
                    self.seen = true;
                }
            }
        }
        if self.seen {
            return timeout;
        }
        if self.fds.iter().any(Option::is_none) {
            return Duration::from_millis(2);
        }
        let ms = timeout.as_millis().clamp(1, i32::MAX as u128) as i32;
        let mut polled: Vec<libc::pollfd> = self
            .fds
            .iter()
            .flatten()
            .map(|f| libc::pollfd {
                fd: f.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // SAFETY: `polled.len()` valid pollfds in a live vector.
        let r = unsafe { libc::poll(polled.as_mut_ptr(), polled.len() as libc::nfds_t, ms) };
        if r <= 0 {
            return Duration::ZERO;
        }
        let ended: Vec<First> = polled
            .iter()
            .zip(Self::WHO)
            .filter(|(p, _)| p.revents != 0)
            .map(|(_, who)| who)
            .collect();
        self.seen = true;
        self.first = match ended.as_slice() {
            [one] => Some(*one),
            _ => None,
        };
        self.fds = [None, None];
        Duration::ZERO
    }
}
