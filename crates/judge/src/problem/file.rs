//! Reading a file of a problem, without letting what it is hang or
//! exhaust the judge, or lead it out of the problem's folder.

use std::io;
use std::path::{Path, PathBuf};

use crate::beneath::{DATA_CAP, TEXT_CAP, Within};

/// Reads a regular file whole (at most [`DATA_CAP`] bytes). A package or
/// spec may hold anything in place of a file — a FIFO (whose open would
/// block forever), a link to `/dev/zero` (whose read never ends) or to
/// `/proc/self/pagemap` (which says it is empty, then reads for
/// gigabytes) — so the file is opened without blocking, refused unless
/// it is a regular file, and read no further than the cap.
///
/// A file of a problem (the nearest folder above it that holds a
/// `problem.yaml`, by its names) is read beneath that folder: a link
/// that leaves it is an error naming the link (see `beneath::Within`).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    read_capped(path, DATA_CAP)
}

/// [`read_regular`] of a settings or spec file (at most [`TEXT_CAP`]
/// bytes), as UTF-8 text.
pub fn read_text(path: &Path) -> io::Result<String> {
    crate::beneath::utf8(read_capped(path, TEXT_CAP)?)
}

/// [`read_regular`] with the cap `cap`.
pub fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    match problem_of(path) {
        Some((dir, rel)) => Within::open(&dir)?.read(&rel, cap),
        None => crate::beneath::read_file(path, cap),
    }
}

/// The problem folder holding `path`, and the path inside it. The path's
/// `..` are kept: the kernel resolves them beneath the folder, so one that
/// climbs out is refused there.
fn problem_of(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let abs = std::path::absolute(path).ok()?;
    let mut at = abs.parent();
    while let Some(dir) = at {
        if std::fs::symlink_metadata(dir.join(super::SPEC_FILE)).is_ok() {
            let rel = abs.strip_prefix(dir).ok()?.to_path_buf();
            return Some((dir.to_path_buf(), rel));
        }
        at = dir.parent();
    }
    None
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

    #[test]
    fn a_file_of_a_problem_is_read_beneath_its_folder() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("p");
        std::fs::create_dir_all(p.join("data")).expect("mkdir");
        std::fs::write(p.join("problem.yaml"), "name: x\n").expect("write");
        std::fs::write(dir.path().join("secret"), "secret").expect("write");
        std::fs::write(p.join("data/a.in"), "1\n").expect("write");
        std::os::unix::fs::symlink("a.in", p.join("data/b.in")).expect("link");
        std::os::unix::fs::symlink("../../secret", p.join("data/c.in")).expect("link");
        assert_eq!(read_text(&p.join("data/b.in")).expect("inside"), "1\n");
        let e = read_text(&p.join("data/c.in")).expect_err("outside");
        assert!(e.to_string().contains("data/c.in is a link"), "{e}");
        let e = read_text(&p.join("data/../../secret")).expect_err("outside");
        assert!(e.to_string().contains("outside"), "{e}");
        // A file beside the problem is no file of it.
        assert_eq!(
            read_text(&dir.path().join("secret")).expect("read"),
            "secret"
        );
    }
}
