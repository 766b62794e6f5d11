//! The external checker programs of `tests/fixtures/checkers/` and what
//! the tests that run them share: the checker staged where its run can
//! read it, the test's files on disk, the case a checker is given, and the
//! processes a killed checker must not leave.

use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use grundy::check::{CheckCase, CheckOutcome, Checker};

/// A checker script of `tests/fixtures/checkers/`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/checkers")
        .join(name)
}

/// The command that runs a checker script, staged in `dir`: a copy of
/// the fixture that any uid may read, as the judge stages a problem's
/// checker into its cache. The fixture itself may not be readable by the
/// run (another uid as root): the repository may be cloned into a folder
/// of mode 0700 (`mktemp -d`, `/root`). `dir` and the folders above it
/// must let others pass (see [`Staged`]).
pub fn staged_command(script: &str, dir: &Path) -> Vec<OsString> {
    let copy = dir.join(script);
    let staged = fs::copy(fixture(script), &copy)
        .and_then(|_| fs::set_permissions(&copy, fs::Permissions::from_mode(0o644)));
    if let Err(e) = staged {
        panic!(
            "cannot stage the checker {script} in {}: {e}",
            dir.display()
        );
    }
    vec![OsString::from("python3"), copy.into_os_string()]
}

/// A folder of the system's temporary folder that any uid may pass
/// through, to stage checker scripts in (see [`staged_command`]); gone
/// with the value.
pub struct Staged {
    dir: tempfile::TempDir,
}

impl Staged {
    pub fn new() -> Staged {
        let dir = tempfile::Builder::new()
            .prefix("grundy-checkers-")
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot make a temporary folder: {e}"));
        if let Err(e) = fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)) {
            panic!("cannot open {} to the run: {e}", dir.path().display());
        }
        Staged { dir }
    }

    /// The command that runs `script`, staged here.
    pub fn command(&self, script: &str) -> Vec<OsString> {
        staged_command(script, self.dir.path())
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Writes a test's `input`, `output` and `answer` files into `dir`, with
/// an empty folder `scratch` beside them (the checker's feedback folder).
pub fn write_files(dir: &Path, input: &str, output: &str, answer: &str, scratch: &str) {
    let written = fs::write(dir.join("input"), input)
        .and_then(|()| fs::write(dir.join("output"), output))
        .and_then(|()| fs::write(dir.join("answer"), answer))
        .and_then(|()| fs::create_dir(dir.join(scratch)));
    if let Err(e) = written {
        panic!("cannot write the test's files: {e}");
    }
}

/// Runs `checker` on the files [`write_files`] wrote into `dir`, as the
/// judge gives them: contents in memory and the same contents as files.
pub fn check_files(checker: &dyn Checker, dir: &Path, scratch: &str) -> CheckOutcome {
    let read = |name: &str| {
        fs::read(dir.join(name)).unwrap_or_else(|e| panic!("cannot read the test's {name}: {e}"))
    };
    let (input, output, answer) = (read("input"), read("output"), read("answer"));
    let (ip, op, ap, fb) = (
        dir.join("input"),
        dir.join("output"),
        dir.join("answer"),
        dir.join(scratch),
    );
    checker.check(&CheckCase {
        input: &input,
        output: &output,
        answer: &answer,
        input_path: &ip,
        output_path: &op,
        answer_path: &ap,
        scratch: &fb,
    })
}

/// A string no other process on the machine has on its command line.
pub fn marker(what: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("grundy-{what}-{}-{nanos}", std::process::id())
}

/// The processes whose command line holds `marker` (a killed process
/// that is not yet reaped has an empty one).
pub fn holding(marker: &str) -> Vec<String> {
    let Ok(procs) = fs::read_dir("/proc") else {
        return vec!["cannot list /proc".into()];
    };
    procs
        .filter_map(Result::ok)
        .filter_map(|e| {
            let cmdline = fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(marker)
                .then(|| e.file_name().to_string_lossy().into_owned())
        })
        .collect()
}

/// Fails unless the processes holding `marker` (a killed checker's
/// helper) are gone. A killed process ends when the kernel next runs it:
/// wait for that, up to a minute (the helper sleeps 1000 s, so one that
/// was not killed stays).
pub fn assert_gone(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !holding(marker).is_empty() && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(holding(marker), Vec::<String>::new(), "the helper survived");
}
