//! A program's standard error: diagnostics, never a verdict.
//!
//! stderr goes to a pipe the judge drains while the program runs, not to a
//! file: a file would count against the output limit (`RLIMIT_FSIZE` and
//! the disk watch), so a chatty but correct program would get OLE, and the
//! disk would fill. The first [`KEEP`] bytes are kept for the report; the
//! rest is `splice`d into `/dev/null`, which moves no data through the
//! judge, so a program writing gigabytes at full speed costs the judge
//! almost nothing and is judged on its answer alone (as DOMjudge and Kattis
//! do). The watcher polls the pipe with the program's end, so no thread is
//! needed; the pipe is enlarged to cut wake-ups.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use rustix::buffer::spare_capacity;
use rustix::fs::OFlags;
use rustix::io::Errno;
use rustix::pipe::{PipeFlags, SpliceFlags};

/// How much of stderr is kept.
pub const KEEP: usize = 64 * 1024;

/// Pipe capacity asked for (the unprivileged maximum by default).
const PIPE_SIZE: usize = 1 << 20;

/// The judge's end of a run's stderr.
pub struct ErrorStream {
    read: OwnedFd,
    null: Option<File>,
    kept: Vec<u8>,
    discarded: u64,
    /// False once every writer has closed the pipe.
    open: bool,
}

impl ErrorStream {
    /// A new pipe: the judge's non-blocking end, and the blocking end the
    /// program gets as descriptor 2 (both close on exec).
    pub fn new() -> io::Result<(ErrorStream, OwnedFd)> {
        let (read, write) = rustix::pipe::pipe_with(PipeFlags::CLOEXEC)?;
        rustix::fs::fcntl_setfl(&read, OFlags::NONBLOCK)?;
        // Fewer wake-ups for a flood; the default size works too.
        let _ = rustix::pipe::fcntl_setpipe_size(&read, PIPE_SIZE);
        Ok((
            ErrorStream {
                read,
                null: None,
                kept: Vec::new(),
                discarded: 0,
                open: true,
            },
            write,
        ))
    }

    /// The descriptor to poll for more, while writers remain.
    pub fn poll_fd(&self) -> Option<RawFd> {
        self.open.then(|| self.read.as_raw_fd())
    }

    /// Takes everything the pipe holds now, without blocking.
    pub fn drain(&mut self) {
        while self.open {
            if self.kept.len() < KEEP {
                // Read straight into what is kept: a buffer on the stack
                // was zeroed and touched (four page faults on a run's
                // thread) even when the program writes nothing, as most do.
                let want = (KEEP - self.kept.len()).min(16 * 1024);
                self.kept.reserve_exact(want);
                match rustix::io::read(&self.read, spare_capacity(&mut self.kept)) {
                    Ok(0) => self.open = false,
                    // `reserve_exact` may give more room than asked.
                    Ok(_) if self.kept.len() > KEEP => {
                        self.discarded += (self.kept.len() - KEEP) as u64;
                        self.kept.truncate(KEEP);
                    }
                    Ok(_) => {}
                    Err(Errno::INTR) => {}
                    Err(Errno::AGAIN) => return,
                    // Nothing more can come of it: stop watching it.
                    Err(_) => {
                        self.open = false;
                        return;
                    }
                }
                continue;
            }
            if !self.discard() {
                return;
            }
        }
    }

    /// Throws away what the pipe holds; false when it is empty for now.
    fn discard(&mut self) -> bool {
        if self.null.is_none() {
            match File::options().write(true).open("/dev/null") {
                Ok(f) => self.null = Some(f),
                Err(_) => return self.discard_by_reading(),
            }
        }
        let Some(null) = self.null.as_ref() else {
            return false;
        };
        match rustix::pipe::splice(
            &self.read,
            None,
            null.as_fd(),
            None,
            PIPE_SIZE,
            SpliceFlags::NONBLOCK,
        ) {
            Ok(0) => {
                self.open = false;
                false
            }
            Ok(n) => {
                self.discarded += n as u64;
                true
            }
            Err(Errno::INTR) => true,
            Err(Errno::AGAIN) => false,
            // No splice here (a file system without it): read instead.
            Err(_) => self.discard_by_reading(),
        }
    }

    fn discard_by_reading(&mut self) -> bool {
        let mut buf = [0u8; 64 * 1024];
        match rustix::io::read(&self.read, &mut buf) {
            Ok(0) => {
                self.open = false;
                false
            }
            Ok(n) => {
                self.discarded += n as u64;
                true
            }
            Err(Errno::INTR) => true,
            Err(Errno::AGAIN) => false,
            Err(_) => {
                self.open = false;
                false
            }
        }
    }

    /// After the run: takes what is left and returns the kept part, with a
    /// note at the end saying how much was not kept. Handed to the caller
    /// in memory, not through a file: no file to create, read back and
    /// remove on every run, and none a program could plant a link for.
    pub fn into_head(mut self) -> Vec<u8> {
        self.drain();
        let mut head = std::mem::take(&mut self.kept);
        // A run's result keeps it: no room reserved for nothing.
        head.shrink_to_fit();
        if self.discarded > 0 {
            head.extend_from_slice(
                format!(
                    "\n[... {} more bytes of stderr not kept ...]\n",
                    self.discarded
                )
                .as_bytes(),
            );
        }
        head
    }
}

/// Waits up to `timeout` for one of `watched` to become readable, draining
/// `err` whenever it has something meanwhile (a program blocked on a full
/// stderr pipe must not wait for the watcher's next look). Returns the
/// index in `watched` of the first readable one, or `None` at the timeout.
pub fn wait(
    watched: &[RawFd],
    err: &mut ErrorStream,
    timeout: Duration,
) -> io::Result<Option<usize>> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let mut fds: Vec<libc::pollfd> = watched
            .iter()
            .chain(err.poll_fd().as_ref())
            .map(|&fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: `fds.len()` valid pollfds in a live vector.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
            continue;
        }
        if let Some(i) = fds[..watched.len()].iter().position(|p| p.revents != 0) {
            return Ok(Some(i));
        }
        if r > 0 {
            err.drain();
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn keeps_the_head_and_counts_the_rest() {
        let (mut s, w) = ErrorStream::new().expect("pipe");
        let mut w = File::from(w);
        let block = vec![b'e'; 32 * 1024];
        let mut written = 0usize;
        // Enough to pass the kept part several times over; drained as it goes.
        while written < 8 * KEEP {
            w.write_all(&block).expect("write");
            written += block.len();
            s.drain();
        }
        drop(w);
        let discarded_before_save = s.discarded;
        let text = s.into_head();
        assert!(text.starts_with(&vec![b'e'; KEEP]));
        let note = String::from_utf8_lossy(&text[KEEP..]).into_owned();
        let expect = format!("{} more bytes", written - KEEP);
        assert!(
            note.contains(&expect),
            "{note} (had {discarded_before_save})"
        );
    }

    #[test]
    fn room_beyond_the_kept_part_does_not_keep_more() {
        let (mut s, w) = ErrorStream::new().expect("pipe");
        // Room for twice what is kept, as an allocator may give: a read
        // into it may take more than the kept part, and the rest is counted.
        s.kept.reserve_exact(2 * KEEP);
        let mut w = File::from(w);
        w.write_all(&vec![b'e'; KEEP - 10]).expect("write");
        s.drain();
        w.write_all(&[b'f'; 100]).expect("write");
        drop(w);
        let text = s.into_head();
        let mut head = vec![b'e'; KEEP - 10];
        head.extend_from_slice(&[b'f'; 10]);
        assert_eq!(&text[..KEEP], &head[..]);
        let note = String::from_utf8_lossy(&text[KEEP..]).into_owned();
        assert!(note.contains("[... 90 more bytes"), "{note}");
    }

    #[test]
    fn a_closed_pipe_is_no_longer_polled() {
        let (mut s, w) = ErrorStream::new().expect("pipe");
        File::from(w).write_all(b"hello\n").expect("write");
        assert!(s.poll_fd().is_some());
        s.drain();
        assert!(s.poll_fd().is_none(), "the writer is gone");
        assert_eq!(s.kept, b"hello\n");
    }
}
