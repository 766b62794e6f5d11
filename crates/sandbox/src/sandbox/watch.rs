//! Watching a sandboxed run: waiting on its `init` (pidfd), its memory
//! group's out-of-memory event and its stderr, and stopping it at the CPU,
//! wall, disk or memory limit, or when the judge is stopping; telling the
//! caller's [`super::Lender`], if any, when the run is idle (`lend.rs`).

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::time::{Duration, Instant};

use super::measure::{HighWater, disk_usage, tmpfs_usage, tree_usage};
use super::pidfd::{Reaped, pidfd_open, reap};
use super::stderr::{self as errstream, ErrorStream};
use super::{Cancel, LimitHit, RunLimits, SandboxError, cgroup};

/// Why [`wait_any`] returned.
enum Woke {
    Ended,
    OutOfMemory,
    Timeout,
}

/// Waits until `init` ends (its pidfd is readable), the run's memory group
/// signals that it is out of memory, or `timeout` passes, draining the
/// run's stderr meanwhile.
fn wait_any(
    pidfd: &OwnedFd,
    oom: Option<&OwnedFd>,
    errors: &mut ErrorStream,
    timeout: Duration,
) -> io::Result<Woke> {
    let mut fds = vec![pidfd.as_raw_fd()];
    fds.extend(oom.map(AsRawFd::as_raw_fd));
    // The end of the run first: a run whose group ran out of memory is a
    // memory limit hit all the same (see `Groups::oom_signalled`).
    Ok(match errstream::wait(&fds, errors, timeout)? {
        Some(0) => Woke::Ended,
        Some(_) => Woke::OutOfMemory,
        None => Woke::Timeout,
    })
}

/// Waits for `init`, stopping the run at the CPU, wall, disk or memory
/// limit (the last through the run's memory group, whose tasks wait rather
/// than die when it is full: see [`cgroup`]; without one, when its
/// processes together hold more than the limit: see
/// [`super::measure::tree_usage`]).
// More than clippy's default: `stop` is the partner's handle of a
// connected run and `lender` the caller's ear for idleness, which only
// this loop can serve.
#[allow(clippy::too_many_arguments)]
pub(super) fn watch(
    pid: libc::pid_t,
    limits: &RunLimits,
    start: Instant,
    live_cpu: &dyn Fn() -> Option<Duration>,
    workdir: &Path,
    tmpfs: Option<&OwnedFd>,
    groups: Option<&cgroup::Groups>,
    hwm: &mut HighWater,
    stop: Option<&std::sync::atomic::AtomicBool>,
    errors: &mut ErrorStream,
    cancel: &Cancel,
    lender: Option<&dyn super::Lender>,
) -> Result<(Option<LimitHit>, Duration, Duration, Reaped), SandboxError> {
    let pidfd = pidfd_open(pid).map_err(SandboxError::Wait)?;
    let mut idleness = super::lend::Idleness::new();
    let oom_event = groups.map(cgroup::Groups::oom_event);
    let mut limit = None;
    let mut seen = Duration::ZERO;
    let mut waited = Duration::ZERO;
    loop {
        if cancel.is_cancelled() {
            // The caller kills `init`, which ends the run, and reaps it.
            return Err(SandboxError::Abandoned);
        }
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
            // The partner of a connected run ended it: no limit was hit.
            // SAFETY: signalling our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            break;
        }
        // Waiting for a CPU on a loaded machine is not sleeping.
        let now = start.elapsed();
        let awake = super::starved::awake(pid, now, limits.wall);
        waited = waited.max(now.saturating_sub(awake));
        if awake >= limits.wall {
            limit = Some(LimitHit::Wall);
            break;
        }
        let elapsed = awake;
        hwm.sample(pid);
        // Without a memory group, the walk for the CPU time also sums the
        // memory of the run's processes: past the limit, the run is over it
        // as surely as a full group would be.
        let used = live_cpu().unwrap_or_else(|| {
            let (cpu, held) = tree_usage(pid, hwm.wanted);
            hwm.together = hwm.together.max(held.unwrap_or(0));
            cpu
        });
        if hwm.together > limits.memory.0 {
            limit = Some(LimitHit::Memory);
            break;
        }
        seen = seen.max(used);
        idleness.tell(lender, now, &mut || {
            used + super::starved::longest_wait(pid)
        });
        let cpu_left = limits.cpu.saturating_sub(used);
        if cpu_left.is_zero() {
            limit = Some(LimitHit::Cpu);
            break;
        }
        // A tmpfs is measured in one system call, and with what has no
        // name; a folder on disk by a walk, not in the first moments.
        let over = match tmpfs {
            Some(fd) => tmpfs_usage(fd).1,
            None => elapsed > Duration::from_millis(20) && disk_usage(workdir) > limits.output.0,
        };
        if over {
            limit = Some(LimitHit::Output);
            break;
        }
        // Until `cpu_left / 2` of wall time passes, even two busy threads
        // cannot have used the budget up; never check more often than 5 ms,
        // and look at the disk at least every 100 ms.
        let nap = (cpu_left / 2)
            .clamp(Duration::from_millis(5), Duration::from_millis(100))
            .min(limits.wall - elapsed);
        match wait_any(&pidfd, oom_event, errors, nap).map_err(SandboxError::Wait)? {
            Woke::Ended => break,
            Woke::OutOfMemory => {
                limit = Some(LimitHit::Memory);
                break;
            }
            Woke::Timeout => {}
        }
    }
    if limit.is_some() {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let reaped = reap(pid).map_err(SandboxError::Wait)?;
    Ok((limit, seen, waited, reaped))
}
