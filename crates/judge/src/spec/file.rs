//! Reading a file a user named, without letting what it is hang or exhaust
//! the judge.

use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Reads a regular file whole. A package or spec may hold anything in
/// place of a file — a FIFO (whose open would block forever) or a link to
/// `/dev/zero` (whose read never ends) — so the file is opened without
/// blocking and refused unless it is a regular file: its size on disk then
/// bounds the read.
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// [`read_regular`], as UTF-8 text.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_regular(path)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_fifos_are_refused_without_blocking() {
        assert!(read_regular(Path::new("/dev/zero")).is_err());
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(read_regular(&fifo).is_err());
        let file = dir.path().join("f");
        std::fs::write(&file, "x").expect("write");
        assert_eq!(read_text(&file).expect("read"), "x");
    }
}
