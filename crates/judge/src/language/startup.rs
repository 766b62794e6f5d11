//! Telling that a program of the problem's own (a checker, an interactor,
//! a validator) never started, rather than what it answered.
//!
//! Such a program speaks through its exit status, and interpreters and
//! runtimes that cannot start a program exit with small statuses of their
//! own: Python's "can't open file" is 2, testlib's presentation error;
//! Java's "could not find or load main class" is 1, testlib's wrong
//! answer. Read as the program's answer, the judge's own failure would be
//! a verdict against the student. The judge therefore looks, before a run,
//! for the files the command names ([`missing_file`]; the sandbox checks
//! the others are readable by the run), and after it, for the words an
//! interpreter uses when it gives up before running anything
//! ([`refused_to_start`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::sandbox::Exit;

/// A file a program's command names that does not exist.
#[derive(Debug, thiserror::Error)]
#[error("{} cannot be opened: {source}", .path.display())]
pub struct MissingFile {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// The first absolute path of `command` (a program and the arguments that
/// make it run, before those of one call) that does not exist: an
/// interpreter's script, a wrapper a languages file names.
pub fn missing_file(command: &[OsString]) -> Option<MissingFile> {
    command
        .iter()
        .map(Path::new)
        .filter(|p| p.is_absolute())
        .find_map(|p| match std::fs::metadata(p) {
            Ok(_) => None,
            Err(source) => Some(MissingFile {
                path: p.to_path_buf(),
                source,
            }),
        })
}

/// The line in which an interpreter or runtime said it could not start
/// the program, if `stderr` (the head of the run's) holds one with the
/// exit status that goes with it.
pub fn refused_to_start(exit: Exit, stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    match exit {
        // `python3: can't open file '/x/checker.py': [Errno 13] Permission
        // denied`: the first thing it says, and all.
        Exit::Code(2) => lines
            .next()
            .filter(|l| python_cannot_open(l))
            .map(str::to_string),
        // The JVM: a missing class or jar, or a VM that cannot be made
        // (the reason comes first, then these words).
        Exit::Code(1) => lines
            .take(4)
            .find(|l| JAVA.iter().any(|j| l.starts_with(j)))
            .map(str::to_string),
        _ => None,
    }
}

/// The JVM's words for a program it could not start.
const JAVA: [&str; 5] = [
    "Error: Could not find or load main class ",
    "Error: Unable to access jarfile ",
    "Error: Could not create the Java Virtual Machine.",
    "Error occurred during initialization of VM",
    "Error: LinkageError occurred while loading main class ",
];

/// `<python>: can't open file '<path>': [Errno <n>] <why>`, where
/// `<python>` is the interpreter as it was called (`python3`,
/// `/usr/bin/python3.11`, `pypy3`).
fn python_cannot_open(line: &str) -> bool {
    let Some((interpreter, rest)) = line.split_once(": can't open file ") else {
        return false;
    };
    let name = Path::new(interpreter)
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    (name.starts_with("python") || name.starts_with("pypy"))
        && (rest.starts_with('\'') || rest.starts_with('"'))
        && rest.contains(": [Errno ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pythons_cannot_open_is_a_refusal_with_its_status_only() {
        let said =
            b"/usr/bin/python3: can't open file '/x/checker.py': [Errno 13] Permission denied\n";
        assert_eq!(
            refused_to_start(Exit::Code(2), said).as_deref(),
            Some("/usr/bin/python3: can't open file '/x/checker.py': [Errno 13] Permission denied")
        );
        assert_eq!(refused_to_start(Exit::Code(1), said), None);
        assert_eq!(refused_to_start(Exit::Code(3), said), None);
        // A checker that talks about files is not an interpreter.
        let checker = b"wrong answer: can't open file 'x': [Errno 2] as the statement says\n";
        assert_eq!(refused_to_start(Exit::Code(2), checker), None);
        let later = b"presentation error\npython3: can't open file 'x': [Errno 2] no\n";
        assert_eq!(refused_to_start(Exit::Code(2), later), None);
    }

    #[test]
    fn the_jvms_words_are_a_refusal() {
        let said = b"Error occurred during initialization of VM\nToo small maximum heap\n";
        assert!(refused_to_start(Exit::Code(1), said).is_some());
        let said = b"Error: Could not find or load main class Main\nCaused by: java.lang.ClassNotFoundException: Main\n";
        assert_eq!(
            refused_to_start(Exit::Code(1), said).as_deref(),
            Some("Error: Could not find or load main class Main")
        );
        assert_eq!(
            refused_to_start(Exit::Code(1), b"wrong answer 3 != 4\n"),
            None
        );
        assert_eq!(refused_to_start(Exit::Signal(9), said), None);
    }

    #[test]
    fn a_missing_file_of_the_command_is_named() {
        let t = tempfile::tempdir().expect("a temporary folder");
        let there = t.path().join("checker.py");
        std::fs::write(&there, "").expect("write");
        let gone = t.path().join("gone.py");
        let command = |p: &Path| vec![OsString::from("python3"), p.as_os_str().to_owned()];
        assert!(missing_file(&command(&there)).is_none());
        let missing = missing_file(&command(&gone)).map(|m| m.path);
        assert_eq!(missing, Some(gone));
    }
}
