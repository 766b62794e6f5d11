//! Reading a file that a user, a package or another user of the machine
//! controls: only a regular file, opened without blocking, and never more
//! than a cap, counted while reading.
//!
//! A size checked before reading proves nothing: `/proc/self/pagemap`
//! and most of `/proc` report size 0 and then read for gigabytes, a
//! device (`/dev/zero`) never ends, and a file can grow between the check
//! and the read. A FIFO would hold the judge in `open` until someone
//! writes to it. So every such read opens with `O_NONBLOCK`, checks the
//! open descriptor's type, and reads through `take(cap + 1)`: one byte
//! more than the cap says the file is too large, and nothing more is read.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The most a settings file (YAML: a spec, `problem.yaml`,
/// `generators.yaml`, a languages or contest config) may hold.
pub const TEXT_CAP: u64 = 16 << 20;
/// The most a source file may hold (a submission, a package's program).
pub const SOURCE_CAP: u64 = 64 << 20;
/// The most one test file (an input or an answer) may hold.
pub const DATA_CAP: u64 = 256 << 20;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("not a regular file (a folder, a FIFO, a device or a socket)")]
    NotRegular,
    #[error("larger than {cap} bytes")]
    TooLarge { cap: u64 },
}

impl From<Refused> for io::Error {
    fn from(r: Refused) -> io::Error {
        let kind = match r {
            Refused::NotRegular => io::ErrorKind::InvalidInput,
            Refused::TooLarge { .. } => io::ErrorKind::FileTooLarge,
        };
        io::Error::new(kind, r)
    }
}

/// Opens `path` for reading (links followed: the caller named it) without
/// blocking on a FIFO; anything but a regular file is refused.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    regular(file)
}

/// `file` if it is a regular file, else why not.
pub fn regular(file: File) -> io::Result<File> {
    if file.metadata()?.is_file() {
        Ok(file)
    } else {
        Err(Refused::NotRegular.into())
    }
}

/// Reads a regular file whole, refusing it once it passes `cap` bytes.
pub fn read_file(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    read_capped(open_regular(path)?, cap)
}

/// [`read_file`], as UTF-8 text.
pub fn read_text(path: &Path, cap: u64) -> io::Result<String> {
    utf8(read_file(path, cap)?)
}

/// `bytes` as text, or an error saying it is not.
pub fn utf8(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Reads what is left of `file`, refusing it once it passes `cap` bytes.
pub fn read_capped(file: File, cap: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(Refused::TooLarge { cap }.into());
    }
    Ok(bytes)
}

/// At most `cap` bytes from the start of the regular file `path` (links
/// followed), for a look at its head; `None` when it cannot be read.
pub fn head(path: &Path, cap: u64) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path)
        .ok()?
        .take(cap)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// Copies the regular file `from` to a new file `to` (mode 0644, never
/// through a link there), refusing a source larger than `cap` bytes.
pub fn copy_file(from: &Path, to: &Path, cap: u64) -> io::Result<u64> {
    copy_open(open_regular(from)?, to, cap)
}

/// [`copy_file`] from an open regular file.
pub fn copy_open(from: File, to: &Path, cap: u64) -> io::Result<u64> {
    let mut out = super::create_nofollow(to)?;
    let copied = io::copy(&mut from.take(cap.saturating_add(1)), &mut out)?;
    if copied > cap {
        drop(out);
        let _ = std::fs::remove_file(to);
        return Err(Refused::TooLarge { cap }.into());
    }
    out.flush()?;
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_says_it_is_empty_is_still_bounded() {
        // `/proc` files report size 0; `/proc/self/pagemap` then reads
        // for gigabytes.
        assert_eq!(std::fs::metadata("/proc/self/maps").expect("maps").len(), 0);
        let e = read_file(Path::new("/proc/self/maps"), 10).expect_err("too large");
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge, "{e}");
        assert!(read_file(Path::new("/proc/self/pagemap"), 4096).is_err());
        let e = read_file(Path::new("/dev/zero"), 10).expect_err("a device");
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{e}");
    }

    #[test]
    fn fifos_are_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(read_file(&fifo, 10).is_err());
        assert!(head(&fifo, 10).is_none());
        assert!(copy_file(&fifo, &dir.path().join("copy"), 10).is_err());
    }

    #[test]
    fn the_cap_is_exact() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("f");
        std::fs::write(&f, b"0123456789").expect("write");
        assert_eq!(read_file(&f, 10).expect("read"), b"0123456789");
        assert!(read_file(&f, 9).is_err());
        assert_eq!(head(&f, 4).expect("head"), b"0123");
        let to = dir.path().join("to");
        assert!(copy_file(&f, &to, 9).is_err());
        assert!(!to.exists());
        assert_eq!(copy_file(&f, &to, 10).expect("copy"), 10);
        assert_eq!(std::fs::read(&to).expect("read"), b"0123456789");
    }
}
