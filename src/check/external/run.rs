//! Running a checker program with a deadline and bounded capture.
//!
//! A checker is judge-side code but may still hang, flood its pipes or fork
//! helpers. So it runs in its own process group (killed as a whole on
//! timeout, and after it exits, to leave no helpers behind), its output is
//! drained by threads that keep only the first few kilobytes (a full pipe
//! can never block it), and the group is killed before the leader is
//! reaped, so the group id cannot have been reused by then.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// Bytes of each stream kept; the rest is read and dropped.
const CAPTURE_CAP: usize = 8 << 10;
/// How long to wait for the pipes to close once the process is gone
/// (a helper that escaped the group may hold them open).
const DRAIN_GRACE: Duration = Duration::from_millis(500);
/// Longest pause between checks for the process's exit.
const MAX_POLL: Duration = Duration::from_millis(20);

/// How the program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    Code(i32),
    Signal(i32),
    TimedOut,
}

/// A finished run: how it ended and the start of what it printed.
#[derive(Debug)]
pub(crate) struct Finished {
    pub exit: Exit,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Why a run produced no result.
#[derive(Debug)]
pub(crate) enum RunError {
    /// The program could not be started (missing, not executable, ...).
    Start(io::Error),
    /// The program started but its exit status could not be collected.
    Wait(io::Error),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Start(e) => write!(f, "cannot be started: {e}"),
            RunError::Wait(e) => write!(f, "could not be waited for: {e}"),
        }
    }
}

/// Runs `argv` with `stdin`, killing it (and its process group) after
/// `timeout`.
pub(crate) fn run(
    argv: &[OsString],
    stdin: Stdio,
    timeout: Duration,
) -> Result<Finished, RunError> {
    let (program, args) = argv.split_first().ok_or_else(|| {
        RunError::Start(io::Error::new(io::ErrorKind::InvalidInput, "empty command"))
    })?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(RunError::Start)?;
    let (done_tx, done_rx) = mpsc::channel();
    let stdout = capture(child.stdout.take(), done_tx.clone());
    let stderr = capture(child.stderr.take(), done_tx);
    let exit = wait_with_deadline(&mut child, timeout).map_err(RunError::Wait)?;
    let deadline = Instant::now() + DRAIN_GRACE;
    for _ in 0..2 {
        let left = deadline.saturating_duration_since(Instant::now());
        if done_rx.recv_timeout(left).is_err() {
            break;
        }
    }
    Ok(Finished {
        exit,
        stdout: take(&stdout),
        stderr: take(&stderr),
    })
}

/// Waits for the child's exit without reaping it, kills its process group,
/// then reaps it.
fn wait_with_deadline(child: &mut Child, timeout: Duration) -> io::Result<Exit> {
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    let mut timed_out = false;
    while !has_exited(child.id()) {
        let now = Instant::now();
        if now >= deadline {
            timed_out = true;
            break;
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(MAX_POLL);
    }
    kill_group(child.id());
    let status = child.wait()?;
    Ok(if timed_out {
        Exit::TimedOut
    } else {
        exit_of(status)
    })
}

fn exit_of(status: ExitStatus) -> Exit {
    match (status.code(), status.signal()) {
        (Some(code), _) => Exit::Code(code),
        (None, Some(signal)) => Exit::Signal(signal),
        (None, None) => Exit::Code(-1),
    }
}

/// Whether the process has terminated, leaving it waitable (a zombie keeps
/// its pid and process group id reserved until reaped). An error counts as
/// exited, so the caller goes on to reap and learns the real state there.
fn has_exited(pid: u32) -> bool {
    let id = libc::id_t::from(pid);
    // SAFETY: an all-zero siginfo_t is a valid value of this plain C struct.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: `info` is a valid, writable siginfo_t for the call's duration.
    let rc = unsafe { libc::waitid(libc::P_PID, id, &mut info, flags) };
    if rc != 0 {
        return true;
    }
    // SAFETY: waitid filled `info` (or left it zeroed when nothing changed);
    // si_pid is valid to read for SIGCHLD-style results.
    unsafe { info.si_pid() != 0 }
}

/// Kills every process of the group led by `pid`; the group may already be
/// empty apart from the unreaped leader, which is fine.
fn kill_group(pid: u32) {
    if let Ok(pgid) = libc::pid_t::try_from(pid) {
        // SAFETY: plain syscall; `pgid` is our own unreaped child's group.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

type Shared = Arc<Mutex<Vec<u8>>>;

/// Drains a pipe on a thread, keeping its first `CAPTURE_CAP` bytes, and
/// signals `done` at end of stream.
fn capture(pipe: Option<impl Read + Send + 'static>, done: mpsc::Sender<()>) -> Shared {
    let kept: Shared = Arc::default();
    let sink = Arc::clone(&kept);
    thread::spawn(move || {
        if let Some(mut pipe) = pipe {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut buf = sink.lock().unwrap_or_else(PoisonError::into_inner);
                let room = CAPTURE_CAP.saturating_sub(buf.len());
                buf.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
        let _ = done.send(());
    });
    kept
}

fn take(shared: &Shared) -> Vec<u8> {
    std::mem::take(&mut *shared.lock().unwrap_or_else(PoisonError::into_inner))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<OsString> {
        ["sh", "-c", script].iter().map(OsString::from).collect()
    }

    fn run_sh(script: &str, timeout: Duration) -> Finished {
        match run(&sh(script), Stdio::null(), timeout) {
            Ok(f) => f,
            Err(e) => panic!("cannot run sh: {e}"),
        }
    }

    #[test]
    fn captures_exit_code_and_streams() {
        let got = run_sh("echo out; echo err >&2; exit 3", Duration::from_secs(10));
        assert_eq!(got.exit, Exit::Code(3));
        assert_eq!(got.stdout, b"out\n");
        assert_eq!(got.stderr, b"err\n");
    }

    #[test]
    fn reports_signals() {
        let got = run_sh("kill -SEGV $$", Duration::from_secs(10));
        assert_eq!(got.exit, Exit::Signal(libc::SIGSEGV));
    }

    #[test]
    fn floods_are_capped_without_blocking() {
        let got = run_sh("head -c 5000000 /dev/zero; exit 0", Duration::from_secs(20));
        assert_eq!(got.exit, Exit::Code(0));
        assert_eq!(got.stdout.len(), CAPTURE_CAP);
    }

    /// Whether `pid` is gone (or a zombie: killed, not yet reaped).
    fn is_gone(pid: i32) -> bool {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .chars()
            .next();
        matches!(state, None | Some('Z' | 'X'))
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        // Both sleepers outlast any test run: only the kill ends them. The
        // timeout is wide so that `sh` has named its helper before it.
        let got = run_sh(
            "sleep 3600 & echo $!; sleep 3600; wait",
            Duration::from_secs(5),
        );
        assert_eq!(got.exit, Exit::TimedOut);
        let helper: i32 = String::from_utf8_lossy(&got.stdout)
            .trim()
            .parse()
            .unwrap_or_else(|e| panic!("no helper pid ({e}): {got:?}"));
        // A killed process ends when the kernel next runs it.
        let deadline = Instant::now() + Duration::from_secs(60);
        while !is_gone(helper) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
        assert!(is_gone(helper), "the background helper {helper} survived");
    }

    #[test]
    fn missing_program_is_an_error() {
        let argv = vec![OsString::from("/nonexistent/checker")];
        assert!(run(&argv, Stdio::null(), Duration::from_secs(1)).is_err());
        assert!(run(&[], Stdio::null(), Duration::from_secs(1)).is_err());
    }
}
