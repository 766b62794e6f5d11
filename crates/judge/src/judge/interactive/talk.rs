//! The judge's side of the conversation with a player: both pipe ends
//! non-blocking and watched with `poll`, what the player does not read yet
//! waiting in a buffer, and the idleness clock running whenever the judge
//! waits for a line; and why the judge stopped the run, if it did.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::games::play::{Interactor, Outcome};
use crate::sandbox::{self, RunOutcome};

/// Why the judge ended the run before the submission did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stopped {
    /// The game was decided (lost, illegal line, output after the end).
    Decided,
    /// The judge waited longer than the idleness limit.
    Idle,
    /// Every game was won and the submission's input closed, and it still
    /// had not exited after the idleness limit.
    NotExited,
    /// The submission wrote more than the output limit.
    Flooded,
}

pub(super) type RunResult = Result<RunOutcome, sandbox::SandboxError>;

/// The judge's ends of the two pipes and what is still to be written.
pub(super) struct Talk {
    pub(super) to: Option<OwnedFd>,
    pub(super) from: Option<OwnedFd>,
    pub(super) pending: Vec<u8>,
    pub(super) written: usize,
    pub(super) read: u64,
}

impl Talk {
    /// Talks until the run is over, and decides the game: why the judge
    /// stopped the run, if it did, and the run's result.
    ///
    /// Whether the judge reads the submission's last lines before or after
    /// it sees the run end is up to the scheduler; the verdict must not be.
    /// So a game the submission's own output decided (an illegal line, a
    /// lost game, anything after the last game) is `Decided` either way,
    /// as docs/reference.md says ("`WA`, whatever the submission does next"): a
    /// player that writes an illegal move and then crashes, or exits, is
    /// `WA`, not `RE` when its end happens to be seen first.
    ///
    /// Once every game is won and the judge's last line is in the pipe, the
    /// submission's input is closed, as an interactor that exits closes it:
    /// a player that reads on (a loop until `scanf` fails) gets its end of
    /// input and can exit; one that still does not exit within the
    /// idleness limit is stopped, told that only its exit was missing.
    pub(super) fn play_out(
        &mut self,
        interactor: &mut Interactor,
        ended: &std::sync::mpsc::Receiver<RunResult>,
        idle_limit: Duration,
        output_limit: u64,
        run: (&AtomicBool, &std::sync::OnceLock<libc::pid_t>),
    ) -> (Option<Stopped>, RunResult) {
        let (mut why, seen_end) = self.converse(interactor, ended, idle_limit, output_limit, run);
        // The run ends within one watch interval of `stop`, or by itself.
        let ran = match seen_end {
            Some(r) => r,
            None => ended
                .recv()
                .unwrap_or(Err(sandbox::SandboxError::Abandoned)),
        };
        if why.is_none() {
            // What it wrote before it ended is still in the pipe: read as
            // if it had been read before the end was seen.
            self.drain(interactor, output_limit);
            if matches!(interactor.outcome(), Some(Outcome::Wrong(_))) {
                why = Some(Stopped::Decided);
            }
        }
        match why {
            Some(Stopped::Idle) => interactor.stop("stopped: the program was idle too long"),
            Some(Stopped::NotExited) => {
                interactor.stop("stopped: all games were won; the program did not exit");
            }
            Some(Stopped::Flooded) => interactor.stop("stopped: too much output"),
            _ => interactor.end_of_output(),
        }
        (why, ran)
    }

    /// Talks until the run ends (returning its result) or the judge stops
    /// it (returning why; the run's result then comes later).
    fn converse(
        &mut self,
        interactor: &mut Interactor,
        ended: &std::sync::mpsc::Receiver<RunResult>,
        idle_limit: Duration,
        output_limit: u64,
        (stop, pid): (&AtomicBool, &std::sync::OnceLock<libc::pid_t>),
    ) -> (Option<Stopped>, Option<RunResult>) {
        let mut idle_since = Instant::now();
        let mut idleness = crate::judge::idleness::Idleness::new(idle_limit);
        let mut run_queue_wait = || pid.get().map(|p| sandbox::run_queue_wait(*p));
        let mut progress = interactor.tokens_read();
        loop {
            if let Ok(r) = ended.try_recv() {
                return (None, Some(r));
            }
            self.write_some();
            if interactor.all_games_won() && self.pending.is_empty() && self.to.is_some() {
                // The games are over and the judge has said all it will:
                // the player's input ends here, its clock to exit starts.
                self.to = None;
                idle_since = Instant::now();
                idleness.restart();
            }
            let stop_for = if interactor.outcome().is_some() {
                Some(Stopped::Decided)
            } else if self.read > output_limit {
                Some(Stopped::Flooded)
            } else if idleness.over(idle_since.elapsed(), &mut run_queue_wait) {
                Some(if interactor.all_games_won() {
                    Stopped::NotExited
                } else {
                    Stopped::Idle
                })
            } else {
                None
            };
            if let Some(why) = stop_for {
                // The `-1` goes out if the submission has room for it.
                self.write_some();
                stop.store(true, Ordering::SeqCst);
                return (Some(why), None);
            }
            self.wait(Duration::from_millis(20));
            self.read_some(interactor, output_limit);
            if interactor.tokens_read() != progress {
                progress = interactor.tokens_read();
                idle_since = Instant::now();
                idleness.restart();
            }
            if interactor.has_output() {
                self.pending.extend(interactor.take_output());
            }
        }
    }

    /// Waits until the submission wrote something, has room for what is
    /// pending, or `timeout` passes.
    fn wait(&self, timeout: Duration) {
        let mut fds = Vec::with_capacity(2);
        if let Some(f) = &self.from {
            fds.push(libc::pollfd {
                fd: f.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            });
        }
        if let Some(t) = &self.to
            && self.written < self.pending.len()
        {
            fds.push(libc::pollfd {
                fd: t.as_raw_fd(),
                events: libc::POLLOUT,
                revents: 0,
            });
        }
        if fds.is_empty() {
            std::thread::sleep(timeout);
            return;
        }
        // SAFETY: a valid array of pollfds; a failure only shortens the wait.
        unsafe {
            libc::poll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                timeout.as_millis() as i32,
            )
        };
    }

    /// Writes what the pipe takes without blocking. A closed pipe (the
    /// submission is gone) drops what is pending: EPIPE is not an error
    /// here, and the judge ignores SIGPIPE (Rust's runtime does).
    fn write_some(&mut self) {
        let Some(t) = &self.to else {
            return;
        };
        while self.written < self.pending.len() {
            let rest = &self.pending[self.written..];
            // SAFETY: writing from a live buffer to a descriptor we own.
            let n = unsafe { libc::write(t.as_raw_fd(), rest.as_ptr().cast(), rest.len()) };
            if n > 0 {
                self.written += n as usize;
                continue;
            }
            let e = io::Error::last_os_error();
            match e.kind() {
                io::ErrorKind::Interrupted => continue,
                io::ErrorKind::WouldBlock => return,
                _ => {
                    self.to = None;
                    self.pending.clear();
                    self.written = 0;
                    return;
                }
            }
        }
        self.pending.clear();
        self.written = 0;
    }

    /// Reads what is there without blocking and feeds it to the interactor;
    /// stops at the output limit (the caller then stops the run).
    fn read_some(&mut self, interactor: &mut Interactor, output_limit: u64) {
        let Some(f) = &self.from else {
            return;
        };
        let mut buf = [0u8; 65536];
        loop {
            if self.read > output_limit || interactor.outcome().is_some() {
                return;
            }
            // SAFETY: reading into a local buffer from a descriptor we own.
            let n = unsafe { libc::read(f.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            if n > 0 {
                self.read += n as u64;
                interactor.feed(&buf[..n as usize]);
                if interactor.has_output() {
                    self.pending.extend(interactor.take_output());
                }
                continue;
            }
            if n == 0 {
                self.from = None;
                return;
            }
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return;
            }
        }
    }

    /// After the run ended: what it wrote last is still in the pipe.
    fn drain(&mut self, interactor: &mut Interactor, output_limit: u64) {
        self.read_some(interactor, output_limit);
        self.pending.clear();
        self.to = None;
    }
}
