//! Running a checker program through the sandbox's [`Runner`], like every
//! other program the judge starts.
//!
//! A checker is judge-side code but may still hang, flood its output, fork
//! helpers or write where it should not. Going through the runner gives it
//! what a submission gets, with the limits of a trusted program: a deadline
//! (CPU and wall), generous memory and output, nothing left running after
//! it (a pid namespace, or its process group with `--sandbox off`), and,
//! as root, its own uid and mount view.
//!
//! Because the run may have another uid and sees only its own folder and
//! what the judge shows it, its files are laid out for it in a folder of
//! their own (see [`Layout`]): copies of the input, the answer and (for a
//! testlib checker) the output, read-only beside its working folder; the
//! working folder itself is its ICPC feedback folder, the one place it may
//! write. The judge's feedback folder is carried in before the run and
//! back out after it, read without following links (see
//! [`crate::beneath`]), so a checker that plants a link there cannot make
//! the judge read or overwrite anything else. The folder is removed after
//! the run, whatever the checker made in it.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::run_kind::RunKind;
use crate::sandbox::{Crossed, Exit, RunLimits, Runner, SandboxError};
use crate::units::Bytes;

/// Bytes of each stream kept for the message; the rest is never read.
const CAPTURE_CAP: u64 = 8 << 10;
/// The most feedback files carried back from one run: a validator writes a
/// handful; a folder of thousands is not feedback.
const FEEDBACK_FILES: usize = 64;

/// Where and how checker programs run.
#[derive(Debug, Clone)]
pub struct Runs {
    /// How runs are made (`--sandbox`, cancellation): the judge's own.
    pub runner: Runner,
    /// The folder each run's own folder is made in: the judge's working
    /// root, which the sandbox lets runs reach.
    pub root: PathBuf,
    /// CPU and wall-clock limit of one run.
    pub timeout: Duration,
    /// Peak memory of one run.
    pub memory: Bytes,
    /// Bytes one run may write to any one file, its stdout and its
    /// feedback files included.
    pub output: Bytes,
}

impl Runs {
    /// The limits of one run: generous (a checker is trusted and may read
    /// big outputs), but finite, so that a broken one cannot stall or
    /// exhaust the judge.
    pub fn limits(&self) -> RunLimits {
        RunLimits {
            cpu: self.timeout,
            wall: self.timeout,
            memory: self.memory,
            address_space: None,
            output: self.output,
        }
    }
}

/// The paths a checker is given, inside its run's folder.
pub(crate) struct Layout {
    pub input: PathBuf,
    pub output: PathBuf,
    pub answer: PathBuf,
    /// Its working folder, writable: the ICPC feedback folder.
    pub feedback: PathBuf,
}

/// One call of a checker program.
pub(crate) struct Call<'a> {
    pub command: &'a [OsString],
    pub input: &'a Path,
    pub output: &'a Path,
    pub answer: &'a Path,
    /// The output is the program's stdin (ICPC) rather than a file it is
    /// given by name (testlib).
    pub output_on_stdin: bool,
    /// The judge's feedback folder, carried in and out (ICPC).
    pub feedback: Option<&'a Path>,
    /// The arguments after `command`, given the run's paths.
    pub args: &'a dyn Fn(&Layout) -> Vec<OsString>,
}

/// How a run ended.
#[derive(Debug)]
pub(crate) struct Finished {
    pub exit: Exit,
    /// The limits it crossed (and was stopped at).
    pub crossed: Crossed,
    /// The first bytes of each stream.
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Why a run produced no result.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunError {
    /// The program could not be started (missing, not executable, ...).
    #[error("cannot be started: {0}")]
    Start(io::Error),
    /// A file its command names does not exist (its script, a wrapper).
    #[error("cannot be started: {0}")]
    Missing(crate::language::MissingFile),
    /// A file its command names cannot be read by its run (a folder of
    /// mode 0700 on the way, a file only its owner may read).
    #[error("cannot be started: the run cannot read {}: {source}", .path.display())]
    Unreadable { path: PathBuf, source: io::Error },
    /// The runner could not run it (setup, cancellation, ...).
    #[error("could not be run: {0}")]
    Run(SandboxError),
    /// The judge could not lay out its files or read them back.
    #[error("could not be run: cannot {what}: {source}")]
    Files {
        what: &'static str,
        source: io::Error,
    },
}

impl From<SandboxError> for RunError {
    fn from(e: SandboxError) -> RunError {
        match e {
            SandboxError::Spawn { source, .. } | SandboxError::NotExecutable { source, .. } => {
                RunError::Start(source)
            }
            SandboxError::Unreadable { path, source } => RunError::Unreadable { path, source },
            other => RunError::Run(other),
        }
    }
}

fn files(what: &'static str) -> impl FnOnce(io::Error) -> RunError {
    move |source| RunError::Files { what, source }
}

/// Runs `call` with `runs`, in a folder of its own below `runs.root` that
/// is gone when this returns.
pub(crate) fn run(runs: &Runs, call: &Call<'_>) -> Result<Finished, RunError> {
    if let Some(missing) = crate::language::missing_file(call.command) {
        return Err(RunError::Missing(missing));
    }
    let dir = tempfile::Builder::new()
        .prefix("check-")
        .tempdir_in(&runs.root)
        .map_err(files("create the checker's folder"))?;
    let finished = run_in(runs, call, dir.path());
    // Whatever tree the checker made (links, unreadable folders, any
    // depth): removed without following or recursing.
    let removed = crate::beneath::remove_tree(dir.path());
    let _ = dir.keep();
    let finished = finished?;
    removed.map_err(files("remove the checker's folder"))?;
    Ok(finished)
}

fn run_in(runs: &Runs, call: &Call<'_>, dir: &Path) -> Result<Finished, RunError> {
    // Passable for the run's uid, not listable; the copies are read-only
    // for it, so it cannot change what it judges.
    fs::set_permissions(dir, fs::Permissions::from_mode(0o711))
        .map_err(files("open the checker's folder"))?;
    let layout = Layout {
        input: dir.join("input"),
        output: dir.join("output"),
        answer: dir.join("answer"),
        feedback: dir.join("feedback"),
    };
    fs::create_dir(&layout.feedback).map_err(files("create the feedback folder"))?;
    place(call.input, &layout.input).map_err(files("copy the input"))?;
    place(call.answer, &layout.answer).map_err(files("copy the answer"))?;
    if !call.output_on_stdin {
        place(call.output, &layout.output).map_err(files("copy the output"))?;
    }
    if let Some(judge_side) = call.feedback {
        carry_in(judge_side, &layout.feedback).map_err(files("copy the feedback folder"))?;
    }
    let mut argv = call.command.to_vec();
    argv.extend((call.args)(&layout));
    // Its feedback lives in its folder, and the judge reads it back: the
    // kind keeps it.
    let mut spec = RunKind::Checker.spec(argv, &layout.feedback, dir.join("stdout"), runs.limits());
    if call.output_on_stdin {
        spec = spec.stdin(call.output.to_path_buf());
    }
    let spec = spec.build();
    let outcome = runs.runner.run(&spec)?;
    if let Some(judge_side) = call.feedback {
        carry_out(&layout.feedback, judge_side, runs.output)
            .map_err(files("read the feedback folder back"))?;
    }
    let head = |name: &str| -> Vec<u8> {
        crate::beneath::read(dir, name, CAPTURE_CAP)
            .ok()
            .flatten()
            .unwrap_or_default()
    };
    Ok(Finished {
        exit: outcome.exit,
        crossed: outcome.crossed,
        stdout: head("stdout"),
        stderr: {
            let mut e = outcome.stderr_head;
            e.truncate(CAPTURE_CAP as usize);
            e
        },
    })
}

/// Copies `from` into `to`, readable by the run whatever uid it has.
fn place(from: &Path, to: &Path) -> io::Result<()> {
    fs::copy(from, to)?;
    fs::set_permissions(to, fs::Permissions::from_mode(0o644))
}

/// The regular files directly in `dir`, by name (links, folders and names
/// that are not UTF-8 are no feedback).
fn regular_files(dir: &Path) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        // `file_type` does not follow a link.
        if !entry.file_type()?.is_file() {
            continue;
        }
        if let Ok(name) = entry.file_name().into_string() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Copies the judge's feedback files into the run's feedback folder. They
/// are left writable by anyone: the run may have another uid than the
/// judge and appends to them (`judgemessage.txt` from pass to pass); the
/// folder around them is private.
fn carry_in(judge_side: &Path, run_side: &Path) -> io::Result<()> {
    fs::create_dir_all(judge_side)?;
    for name in regular_files(judge_side)? {
        let to = run_side.join(&name);
        fs::copy(judge_side.join(&name), &to)?;
        fs::set_permissions(&to, fs::Permissions::from_mode(0o666))?;
    }
    Ok(())
}

/// Makes the judge's feedback folder hold what the run's holds: its
/// regular files (at most [`FEEDBACK_FILES`], `budget` bytes in all),
/// read beneath the run's folder without following a link, and written
/// anew on the judge's side; files the run removed are removed.
fn carry_out(run_side: &Path, judge_side: &Path, budget: Bytes) -> io::Result<()> {
    let names = regular_files(run_side)?;
    for old in regular_files(judge_side)? {
        if !names.contains(&old) {
            crate::beneath::remove_file(judge_side, &old)?;
        }
    }
    let mut left = budget.0;
    for name in names.iter().take(FEEDBACK_FILES) {
        let Some(bytes) = crate::beneath::read(run_side, name, left)? else {
            continue;
        };
        left = left.saturating_sub(bytes.len() as u64);
        crate::beneath::write(judge_side, name, &bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Mode;

    fn runs(root: &Path) -> Runs {
        Runs {
            runner: Runner::new(Mode::Off),
            root: root.to_path_buf(),
            timeout: Duration::from_secs(20),
            memory: Bytes::mib(512),
            output: Bytes::mib(16),
        }
    }

    fn sh(root: &Path, script: &str, feedback: Option<&Path>) -> Result<Finished, RunError> {
        let empty = root.join("empty");
        fs::write(&empty, "").map_err(files("write"))?;
        let command: Vec<OsString> = ["sh", "-c", script].map(OsString::from).to_vec();
        run(
            &runs(root),
            &Call {
                command: &command,
                input: &empty,
                output: &empty,
                answer: &empty,
                output_on_stdin: true,
                feedback,
                args: &|_| Vec::new(),
            },
        )
    }

    fn leftovers(root: &Path) -> Vec<PathBuf> {
        let mut left: Vec<PathBuf> = fs::read_dir(root)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        left.retain(|p| !p.ends_with("empty") && !p.ends_with("judge-feedback"));
        left
    }

    #[test]
    fn captures_exit_code_and_streams_and_leaves_no_folder() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let got = sh(root.path(), "echo out; echo err >&2; exit 3", None)
            .unwrap_or_else(|e| panic!("cannot run sh: {e}"));
        assert_eq!(got.exit, Exit::Code(3));
        assert_eq!(got.stdout, b"out\n");
        assert_eq!(got.stderr, b"err\n");
        assert!(!got.crossed.any());
        assert_eq!(leftovers(root.path()), Vec::<PathBuf>::new());
    }

    #[test]
    fn feedback_goes_in_and_comes_back_without_links() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let judge = root.path().join("judge-feedback");
        fs::create_dir(&judge).expect("feedback folder");
        fs::write(judge.join("judgemessage.txt"), "pass 1\n").expect("old feedback");
        fs::write(judge.join("gone.txt"), "x").expect("old feedback");
        let secret = root.path().join("empty");
        let script = format!(
            "echo 'pass 2' >> judgemessage.txt; rm gone.txt; echo 7 > score.txt; \
             ln -s {} link.txt; mkdir sub",
            secret.display()
        );
        let got =
            sh(root.path(), &script, Some(&judge)).unwrap_or_else(|e| panic!("cannot run sh: {e}"));
        assert_eq!(got.exit, Exit::Code(0));
        let read = |name: &str| fs::read_to_string(judge.join(name)).ok();
        assert_eq!(
            read("judgemessage.txt").as_deref(),
            Some("pass 1\npass 2\n")
        );
        assert_eq!(read("score.txt").as_deref(), Some("7\n"));
        assert_eq!(read("gone.txt"), None);
        assert!(fs::symlink_metadata(judge.join("link.txt")).is_err());
        assert!(!judge.join("sub").exists());
        assert_eq!(leftovers(root.path()), Vec::<PathBuf>::new());
    }

    #[test]
    fn missing_program_cannot_be_started() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let empty = root.path().join("empty");
        fs::write(&empty, "").expect("input");
        let call = |command: &[OsString]| {
            run(
                &runs(root.path()),
                &Call {
                    command,
                    input: &empty,
                    output: &empty,
                    answer: &empty,
                    output_on_stdin: false,
                    feedback: None,
                    args: &|_| Vec::new(),
                },
            )
        };
        // Named before anything is made for it.
        let missing = [OsString::from("/nonexistent/checker")];
        assert!(
            matches!(call(&missing), Err(RunError::Missing(m)) if m.path == Path::new("/nonexistent/checker"))
        );
        // Not a file the judge could look for: the kernel's word.
        let unknown = [OsString::from("grundy-no-such-checker")];
        assert!(matches!(call(&unknown), Err(RunError::Start(_))));
        assert!(matches!(call(&[]), Err(RunError::Start(_))));
        assert_eq!(leftovers(root.path()), Vec::<PathBuf>::new());
    }
}
