//! One test of an interactive problem whose interactor is a program the
//! problem supplies (an ICPC / Kattis output validator of an interactive
//! package, or a testlib interactor), not one of grundy's built-in games.
//!
//! The two programs run at once, each in its own sandbox, connected by two
//! pipes that the judge does not read: the submission's stdout is the
//! interactor's stdin and the reverse. Only the submission's limits are
//! the problem's; the interactor gets generous ones, and any failure of it
//! is `IE`. Nothing can hang the judge: the submission ends at its own
//! limits (a submission that waits forever ends at its wall limit:
//! `TLE`), and once the submission has ended the interactor has
//! [`INTERACTOR_GRACE`] to end too, or it is stopped and the test is `IE`.
//!
//! The verdict follows the ICPC format's precedence between the two runs
//! ([`crate::verdict::interactive::precedence`]): which of them ended
//! first decides. The judge keeps
//! the interactor's input open until the submission has ended, so a
//! submission that closes its output and then crashes or hangs ends first
//! (its `RTE` or `TLE` stands), as Kattis and BAPCtools judge it.
//!
//! Once the submission has ended, the judge reads and drops what the
//! interactor still writes to it, as BAPCtools' relay between the two
//! does: an interactor that writes its next line before it reads the
//! submission's last one then ends with its own verdict, not killed by the
//! closed pipe (`SIGPIPE`, or Python's exit status 120) into an `IE`.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::context::Context;
use super::exec::{STDERR_CAP, head, run_limits, text_head};
use super::prepared::{Prepared, PreparedTest};
use super::result::TestResult;
use crate::language::Compiled;
use crate::sandbox::{self, Exit, Pipes, RunLimits, RunOutcome, RunSpec, SandboxError};
use crate::units::Bytes;
use crate::verdict::Verdict;
use crate::verdict::decide::{Reason, RunFacts, run_verdict};
use crate::verdict::interactive::{First, InteractorEnd, interaction};
use crate::verdict::protocol::{Protocol, Said};

/// How long the interactor may run on after the submission ended: reading
/// the end of its input and writing a verdict take milliseconds, so this
/// only bounds an interactor that is stuck.
pub const INTERACTOR_GRACE: Duration = Duration::from_secs(10);
/// The interactor's own CPU limit, at least this (it is trusted code, but
/// must not run forever).
const INTERACTOR_MIN_CPU: Duration = Duration::from_secs(10);
/// The interactor's memory limit.
const INTERACTOR_MEMORY: Bytes = Bytes(1 << 30);
/// How much of the interactor's message is kept.
const MESSAGE_CAP: usize = 1000;

/// Runs and judges one test against the problem's interactor program.
pub fn judge_test(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    interactor: &Compiled,
    protocol: Protocol,
    args: &[String],
) -> TestResult {
    judge_pass(
        prepared,
        ctx,
        program,
        test,
        &test.input,
        None,
        (interactor, protocol, args),
    )
}

/// [`judge_test`] on `input` (a later pass of a multi-pass test: the input
/// the interactor wrote), with the interactor's feedback files carried in
/// `feedback`: copied in before the run and back out after it, since the
/// format keeps them from pass to pass.
pub(super) fn judge_pass(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    input: &Path,
    feedback: Option<&Path>,
    (interactor, protocol, args): (&Compiled, Protocol, &[String]),
) -> TestResult {
    let mut r = TestResult::unjudged(&test.name, &test.group);
    let answer = match &test.answer {
        Ok(a) => a.clone(),
        Err(why) => {
            r.message = why.to_string();
            return r;
        }
    };
    let limits = run_limits(program, &prepared.problem.limits);
    let run = Connected {
        program,
        limits,
        problem_memory: prepared.problem.limits.memory,
        interactor,
        protocol,
        args,
        feedback,
        runner: &ctx.sandbox,
    };
    let played = match run.play(input, &answer, ctx.workroot.path()) {
        Ok(p) => p,
        Err(NotPlayed::Submission(e)) => {
            r.not_run(e, "the judge could not run the interaction");
            return r;
        }
        Err(NotPlayed::Judge(e)) => {
            r.message = format!("the judge could not run the interaction: {e}");
            return r;
        }
        Err(NotPlayed::Interactor(e)) => {
            r.message = format!("the interactor could not be started: {e}");
            return r;
        }
    };
    let o = &played.submission;
    r.record_run(o);
    let (verdict, message, reason) =
        played.verdict(&limits, prepared.problem.limits.memory, protocol);
    r.verdict = verdict;
    r.message = message;
    r.reason = reason;
    if verdict != Verdict::AC {
        r.stderr = played.stderr_head;
    } else {
        // A scoring package's interactor may give an accepted test part
        // of its credit, as its output validator would.
        match played
            .scores
            .and_then(|files| super::score_file::share_of(prepared, &test.group, files))
        {
            Ok(share) => r.share = share,
            Err(why) => {
                r.verdict = Verdict::IE;
                r.message = super::Chain(&why).to_string();
            }
        }
    }
    r
}

/// The two programs of one connected run and their limits.
struct Connected<'a> {
    program: &'a Compiled,
    limits: RunLimits,
    problem_memory: Bytes,
    interactor: &'a Compiled,
    protocol: Protocol,
    args: &'a [String],
    /// Where the feedback files live between the passes of a multi-pass
    /// test.
    feedback: Option<&'a Path>,
    runner: &'a sandbox::Runner,
}

/// What happened in one connected run.
struct Played {
    submission: RunOutcome,
    interactor: RunOutcome,
    /// Which run ended first.
    first: First,
    /// The interactor was stopped because it outlived the submission by
    /// more than [`INTERACTOR_GRACE`].
    interactor_stuck: bool,
    /// The interactor's message (`judgemessage.txt`, or its stderr).
    message: String,
    stderr_head: String,
    /// The interactor's `score.txt` / `score_multiplier.txt` (ICPC style).
    scores: Result<super::score_file::Files, super::score_file::ScoreFileError>,
}

/// Why a connected run did not happen, by whose run failed: a
/// submission the kernel would not start is its own `RE`
/// ([`crate::verdict::decide::not_run`]); an interactor that would not start, or
/// anything the judge could not set up, is the judge's `IE`.
#[derive(Debug)]
enum NotPlayed {
    Submission(SandboxError),
    Judge(SandboxError),
    Interactor(NotStarted),
}

/// Why the interactor did not start (the test is `IE`), naming the file
/// when one was missing or unreadable for its run.
#[derive(Debug, thiserror::Error)]
enum NotStarted {
    #[error("{0}")]
    Missing(crate::language::MissingFile),
    #[error("the kernel would not execute `{program}`: {source}")]
    Exec {
        program: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Run(SandboxError),
}

impl NotPlayed {
    /// The interactor's own run failed with `e`: it could not be started
    /// (missing, not executable, a file its run cannot read), or the judge
    /// could not run it.
    fn interactor(e: SandboxError) -> NotPlayed {
        match e {
            SandboxError::NotExecutable { program, source } => {
                NotPlayed::Interactor(NotStarted::Exec { program, source })
            }
            SandboxError::Spawn { .. } | SandboxError::Unreadable { .. } => {
                NotPlayed::Interactor(NotStarted::Run(e))
            }
            e => NotPlayed::Judge(e),
        }
    }
}

impl From<SandboxError> for NotPlayed {
    fn from(e: SandboxError) -> NotPlayed {
        NotPlayed::Judge(e)
    }
}

fn setup(what: &str) -> impl FnOnce(std::io::Error) -> SandboxError {
    let what = what.to_string();
    move |source| SandboxError::Setup { what, source }
}

/// A pipe whose ends are closed on exec (each run gets its end as a
/// standard stream, never a stray copy of another).
fn pipe() -> std::io::Result<(std::os::fd::OwnedFd, std::os::fd::OwnedFd)> {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: a valid array of two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned these descriptors; we own them.
    Ok(unsafe {
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    })
}

/// Copies `from` into `to`, readable by the run whatever uid it has.
fn place(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::copy(from, to)?;
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o644))
}

/// Copies the files directly in `from` into `to` (replacing any of the
/// same name), but those named in `except`. They are left writable by
/// anyone: the interactor's run may have another uid than the judge and
/// appends to them (`judgemessage.txt`); the folder itself is private.
/// What the run left is read without following a link, and at most
/// [`CARRIED_CAP`] bytes of each.
fn carry(from: &Path, to: &Path, except: &[&str]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if !entry.file_type()?.is_file() || except.iter().any(|e| entry.file_name() == **e) {
            continue;
        }
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let Some(bytes) = crate::beneath::read(from, &name, CARRIED_CAP)? else {
            continue;
        };
        crate::beneath::write(to, &name, &bytes)?;
        std::fs::set_permissions(to.join(&name), std::fs::Permissions::from_mode(0o666))?;
    }
    Ok(())
}

/// The most of each feedback file carried from one pass to the next.
const CARRIED_CAP: u64 = 16 << 20;

impl Connected<'_> {
    /// The interactor's limits: generous, and never below the submission's
    /// (it waits for the submission as long as the submission may run).
    fn interactor_limits(&self) -> RunLimits {
        let cpu = (self.limits.cpu * 2).max(INTERACTOR_MIN_CPU);
        RunLimits {
            cpu,
            wall: RunLimits::wall_for(cpu).max(self.limits.wall + INTERACTOR_GRACE),
            memory: INTERACTOR_MEMORY,
            address_space: None,
            output: Bytes::mib(256),
        }
    }

    fn play(&self, input: &Path, answer: &Path, root: &Path) -> Result<Played, NotPlayed> {
        let dir = tempfile::Builder::new()
            .prefix("run-")
            .tempdir_in(root)
            .map_err(setup("create the run folder"))?;
        let played = self.play_in(dir.path(), input, answer);
        let _ = super::workroot::remove_tree(dir.path());
        played
    }

    fn play_in(&self, dir: &Path, input: &Path, answer: &Path) -> Result<Played, NotPlayed> {
        let work = dir.join("work");
        let judge = dir.join("interactor");
        std::fs::create_dir(&work).map_err(setup("create the working folder"))?;
        std::fs::create_dir(&judge).map_err(setup("create the interactor's folder"))?;
        // The interactor's files live in its own working folder, the one
        // place its sandbox lets it read and write; the feedback folder is
        // that folder itself (it must be writable by the run's uid).
        let input_copy = judge.join("input");
        let answer_copy = judge.join("answer");
        place(input, &input_copy).map_err(setup("copy the test input"))?;
        place(answer, &answer_copy).map_err(setup("copy the test answer"))?;
        if let Some(carried) = self.feedback {
            carry(carried, &judge, &[]).map_err(setup("copy the feedback of the last pass"))?;
        }
        let mut argv = self.interactor.argv(INTERACTOR_MEMORY);
        if let Some(missing) = crate::language::missing_file(&argv) {
            return Err(NotPlayed::Interactor(NotStarted::Missing(missing)));
        }
        argv.push(input_copy.into_os_string());
        match self.protocol {
            Protocol::Icpc => {
                argv.push(answer_copy.into_os_string());
                let mut feedback = judge.clone().into_os_string();
                feedback.push("/");
                argv.push(feedback);
                argv.extend(self.args.iter().map(Into::into));
            }
            Protocol::Testlib => argv.push(judge.join("output").into_os_string()),
        }
        let int_spec = RunSpec {
            argv,
            workdir: judge.clone(),
            stdin: dir.join("interactor.stdin"),
            stdout: dir.join("interactor.stdout"),
            env: super::exec::env(&judge),
            limits: self.interactor_limits(),
            // Its input, answer and feedback live there.
            keep_workdir: true,
        };
        let sub_spec = RunSpec {
            argv: self.program.argv(self.problem_memory),
            workdir: work.clone(),
            stdin: dir.join("stdin"),
            stdout: dir.join("stdout"),
            env: super::exec::env(&work),
            limits: self.limits,
            keep_workdir: false,
        };
        let (sub_in, int_out) = pipe().map_err(setup("create the pipe to the submission"))?;
        let (int_in, sub_out) = pipe().map_err(setup("create the pipe to the interactor"))?;
        // The judge's own copy of the interactor's input: the interactor
        // sees its end only once the submission has ended (see the module
        // doc).
        let mut held = Some(
            sub_out
                .try_clone()
                .map_err(setup("hold the interactor's input"))?,
        );
        // The judge's own copy of the submission's input, read only once
        // the submission has ended (see the module doc).
        let mut drain = Some(
            sub_in
                .try_clone()
                .map_err(setup("hold the submission's input"))?,
        );
        let sub_stop = Arc::new(AtomicBool::new(false));
        let int_stop = Arc::new(AtomicBool::new(false));
        let sub_ended: Arc<std::sync::OnceLock<Instant>> = Arc::default();
        let int_ended: Arc<std::sync::OnceLock<Instant>> = Arc::default();
        let sub_pid: Arc<std::sync::OnceLock<libc::pid_t>> = Arc::default();
        let int_pid: Arc<std::sync::OnceLock<libc::pid_t>> = Arc::default();
        let sub_pipes = Pipes {
            stdin: sub_in,
            stdout: sub_out,
            stop: Arc::clone(&sub_stop),
            ended: Arc::clone(&sub_ended),
            pid: Arc::clone(&sub_pid),
        };
        let int_pipes = Pipes {
            stdin: int_in,
            stdout: int_out,
            stop: Arc::clone(&int_stop),
            ended: Arc::clone(&int_ended),
            pid: Arc::clone(&int_pid),
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let mut ends = Ends::new(&sub_pid, &int_pid);
        let (sub, int, stuck) = std::thread::scope(|s| {
            let sub_tx = tx.clone();
            let sub_spec = &sub_spec;
            let int_spec = &int_spec;
            s.spawn(move || {
                let r = self.runner.run_connected(sub_spec, sub_pipes);
                let _ = sub_tx.send((First::Submission, r));
            });
            s.spawn(move || {
                let r = self.runner.run_connected(int_spec, int_pipes);
                let _ = tx.send((First::Interactor, r));
            });
            self.watch(&rx, &sub_stop, &int_stop, &mut held, &mut drain, &mut ends)
        });
        // The submission's failure first: one that never started left the
        // interactor nothing to talk to, whatever the interactor then did.
        let submission = sub.map_err(NotPlayed::Submission)?;
        let interactor = int.map_err(NotPlayed::interactor)?;
        if let Some(carried) = self.feedback {
            carry(&judge, carried, &["input", "answer"])
                .map_err(setup("keep the feedback for the next pass"))?;
        }
        // Which run ended first cannot be told from which result arrived
        // first (a run's result takes a while to gather): a submission
        // that the judge stopped shows as killed by SIGKILL at no limit.
        let cut_short = sub_stop.load(Ordering::SeqCst)
            && submission.exit == Exit::Signal(libc::SIGKILL)
            && !submission.crossed.any();
        let first = match (ends.first, int_ended.get(), sub_ended.get()) {
            _ if cut_short => First::Interactor,
            (Some(who), _, _) => who,
            (None, Some(i), Some(s)) if i < s => First::Interactor,
            _ => First::Submission,
        };
        let scores = match self.protocol {
            Protocol::Icpc => super::score_file::read(&judge, "interactor"),
            Protocol::Testlib => Ok(super::score_file::Files::default()),
        };
        let message = match self.protocol {
            Protocol::Icpc => head(&judge.join("judgemessage.txt"), MESSAGE_CAP),
            Protocol::Testlib => String::new(),
        };
        let message = if message.trim().is_empty() {
            text_head(&interactor.stderr_head, MESSAGE_CAP)
        } else {
            message
        };
        let stderr_head = self
            .program
            .messages(&text_head(&submission.stderr_head, STDERR_CAP));
        Ok(Played {
            submission,
            interactor,
            first,
            interactor_stuck: stuck,
            message: message.trim().to_string(),
            stderr_head,
            scores,
        })
    }

    /// Waits for both runs. An interactor that has decided against the
    /// submission (or failed) ends it at once; one that outlives the
    /// submission by [`INTERACTOR_GRACE`] is stopped.
    #[allow(clippy::type_complexity)]
    fn watch(
        &self,
        rx: &std::sync::mpsc::Receiver<(First, Result<RunOutcome, SandboxError>)>,
        sub_stop: &AtomicBool,
        int_stop: &AtomicBool,
        held: &mut Option<std::os::fd::OwnedFd>,
        drain: &mut Option<std::os::fd::OwnedFd>,
        ends: &mut Ends,
    ) -> (
        Result<RunOutcome, SandboxError>,
        Result<RunOutcome, SandboxError>,
        bool,
    ) {
        let mut sub = None;
        let mut int = None;
        let mut deadline: Option<Instant> = None;
        let mut stuck = false;
        while sub.is_none() || int.is_none() {
            if sub.is_some() && int.is_none() {
                drop_pending(drain);
            }
            // Waits on both processes at once while neither has ended,
            // then on `rx` (at most 50 ms either way, as before).
            let left = ends.wait(Duration::from_millis(50));
            match rx.recv_timeout(left) {
                Ok((First::Submission, r)) => {
                    // Now the interactor may see the end of its input.
                    held.take();
                    deadline = Some(Instant::now() + INTERACTOR_GRACE);
                    sub = Some(r);
                }
                Ok((First::Interactor, r)) => {
                    drain.take();
                    let accepted = matches!(
                        &r,
                        Ok(o) if !o.crossed.any() && self.protocol.said(o.exit) == Said::Accepted
                    );
                    if !accepted {
                        sub_stop.store(true, Ordering::SeqCst);
                    }
                    int = Some(r);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    held.take();
                    break;
                }
            }
            if int.is_none() && deadline.is_some_and(|d| Instant::now() > d) && !stuck {
                stuck = true;
                int_stop.store(true, Ordering::SeqCst);
            }
        }
        (
            sub.unwrap_or(Err(SandboxError::Abandoned)),
            int.unwrap_or(Err(SandboxError::Abandoned)),
            stuck,
        )
    }
}

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
struct Ends {
    /// Each run's pid cell, published once the run started.
    pids: [Arc<std::sync::OnceLock<libc::pid_t>>; 2],
    /// The pidfds, opened as soon as the pids are known.
    fds: [Option<std::os::fd::OwnedFd>; 2],
    /// Set once one poll has seen an end (or a pid was already gone).
    seen: bool,
    /// The run that had ended when that poll saw only one; `None` when
    /// it saw both.
    first: Option<First>,
}

impl Ends {
    /// In the order of [`Ends::WHO`].
    const WHO: [First; 2] = [First::Submission, First::Interactor];

    fn new(
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
    fn wait(&mut self, timeout: Duration) -> Duration {
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

/// Reads and drops what is waiting in the pipe `fd` reads, without
/// blocking; at its end (the interactor closed it) the judge's copy is
/// closed.
fn drop_pending(fd: &mut Option<std::os::fd::OwnedFd>) {
    use std::os::fd::AsRawFd;
    let mut buf = [0u8; 1 << 16];
    while let Some(f) = fd.as_ref() {
        let mut poll = libc::pollfd {
            fd: f.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, no waiting.
        let ready = unsafe { libc::poll(&mut poll, 1, 0) };
        if ready <= 0 || poll.revents == 0 {
            return;
        }
        // SAFETY: `buf` is writable for its length; poll said the read
        // cannot block (the judge is the pipe's only reader now).
        let n = unsafe { libc::read(f.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        match n {
            0 => drop(fd.take()),
            // Interrupted: tried again on the next round.
            n if n < 0 => return,
            _ => {}
        }
    }
}

impl Played {
    /// The verdict, by [`crate::verdict::interactive::interaction`]; with
    /// it, the reason when the submission's own run (a limit, a crash)
    /// decided.
    fn verdict(
        &self,
        limits: &RunLimits,
        problem_memory: Bytes,
        protocol: Protocol,
    ) -> (Verdict, String, Option<Reason>) {
        let int = &self.interactor;
        let end = if self.interactor_stuck {
            InteractorEnd::Stuck {
                grace: INTERACTOR_GRACE,
            }
        } else if let Some(said) = crate::language::refused_to_start(int.exit, &int.stderr_head) {
            InteractorEnd::NotStarted(said)
        } else if let Some(hit) = int.crossed.first() {
            InteractorEnd::AtLimit(hit)
        } else {
            InteractorEnd::Said(protocol.said(int.exit))
        };
        let run = run_verdict(
            &RunFacts::of(&self.submission, &self.stderr_head),
            limits,
            problem_memory,
        );
        interaction(protocol, self.first, end, run, &self.message)
    }
}
