//! The files a run's command names: its arguments that are absolute paths
//! of regular files (an interpreter's script, a checker's copies of the
//! input and the answer).
//!
//! The sandbox already lets a run read them (Landlock, the way through the
//! judge's folders, see `landlock::command_paths`); this is the other half:
//! a run that cannot read one anyway (a folder of mode 0700 on the way, a
//! file only its owner reads, a folder the view hides) would fail for a
//! reason not its own, and an interpreter's "cannot open file" would be
//! read as the program's exit status. Each is therefore opened as the run,
//! everything in force, just before the program is executed; one that
//! cannot be is [`super::SandboxError::Unreadable`], naming the file.

use std::ffi::{CStr, CString, OsStr};
use std::path::{Path, PathBuf};

/// The arguments among `args` that name regular files, as the judge sees
/// them (folders, devices and what does not exist are left to the program).
pub fn files(args: &[&OsStr]) -> Vec<PathBuf> {
    args.iter()
        .map(Path::new)
        .filter(|p| p.is_absolute())
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
        .map(Path::to_path_buf)
        .collect()
}

/// Opens each of `files` for reading and closes it again, in the
/// program's process just before it executes the program (its uid, view
/// and Landlock rules in force); the index of the first that cannot be
/// opened, `errno` still saying why. Raw system calls on memory prepared
/// beforehand only (see `child.rs`).
pub fn first_unreadable(files: &[CString]) -> Option<usize> {
    files.iter().position(|file| !opens(file))
}

fn opens(file: &CStr) -> bool {
    let flags = libc::O_RDONLY | libc::O_CLOEXEC | libc::O_NOCTTY | libc::O_NONBLOCK;
    // SAFETY: open and close on a NUL-terminated path; the descriptor is
    // the call's own.
    unsafe {
        let fd = libc::open(file.as_ptr(), flags);
        if fd < 0 {
            return false;
        }
        libc::close(fd);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_absolute_regular_files_are_named() {
        let t = tempfile::tempdir().expect("a temporary folder");
        let script = t.path().join("main.py");
        std::fs::write(&script, "").expect("write");
        let args = [
            OsStr::new("-c"),
            OsStr::new("main.py"),
            script.as_os_str(),
            t.path().as_os_str(),
            OsStr::new("/dev/null"),
            OsStr::new("/nonexistent/file"),
        ];
        assert_eq!(files(&args), vec![script]);
    }

    #[test]
    fn the_first_file_that_cannot_be_opened_is_found() {
        let t = tempfile::tempdir().expect("a temporary folder");
        let there = t.path().join("there");
        std::fs::write(&there, "").expect("write");
        let c = |p: &Path| CString::new(p.as_os_str().as_encoded_bytes()).expect("a path");
        let gone = t.path().join("gone");
        assert_eq!(first_unreadable(&[c(&there)]), None);
        assert_eq!(first_unreadable(&[c(&there), c(&gone), c(&there)]), Some(1));
        assert_eq!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::ENOENT)
        );
    }
}
