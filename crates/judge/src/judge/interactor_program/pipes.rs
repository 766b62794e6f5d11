//! The two pipes between the submission and the interactor: made closed
//! on exec, and what the interactor still writes once the submission has
//! ended, read and dropped.

/// A pipe whose ends are closed on exec (each run gets its end as a
/// standard stream, never a stray copy of another).
pub(super) fn pipe() -> std::io::Result<(std::os::fd::OwnedFd, std::os::fd::OwnedFd)> {
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

/// Reads and drops what is waiting in the pipe `fd` reads, without
/// blocking; at its end (the interactor closed it) the judge's copy is
/// closed.
pub(super) fn drop_pending(fd: &mut Option<std::os::fd::OwnedFd>) {
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
