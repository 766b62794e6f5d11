//! A process's pidfd and its reaping: how the judge waits for the `init` of
//! a run (or for a plain child) and collects its status and resource usage.
//! Its own module so that the watcher, the plain runner and the zygote all
//! use it without one of them importing another.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

/// A descriptor that becomes readable when `pid` ends: what the judge
/// polls on, beside the run's other events.
pub(super) fn pidfd_open(pid: libc::pid_t) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just handed us this descriptor; we own it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Waits for `pid` (already ended, or about to be) and takes its status
/// and resource usage, retrying on `EINTR`.
pub(super) fn reap(pid: libc::pid_t) -> io::Result<Reaped> {
    let mut status = 0;
    // SAFETY: zeroed rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to our locals.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// What [`reap`] collects: the wait status and the resource usage.
pub(super) type Reaped = (libc::c_int, libc::rusage);
