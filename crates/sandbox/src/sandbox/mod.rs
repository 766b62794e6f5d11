//! One run of one program under limits: the only place that starts
//! untrusted processes.
//!
//! The sandbox knows nothing of problems or verdicts. It takes a command, an
//! input file and limits, and reports what happened: how the program ended,
//! the CPU and wall time it used, its peak memory, how much it wrote, and
//! which limits it crossed. Turning that into `TLE` or `MLE` is
//! `verdict::decide`'s business. How runs are made (the mode, the
//! cancellation) is a [`Runner`] value the caller passes, not process state.
//!
//! A run is confined with the strongest mechanisms the kernel and our
//! privileges allow, probed at run time (see SECURITY.md): Landlock for
//! files, TCP and signals; a seccomp filter for sockets and other kernel
//! surface; a pid namespace so that nothing outlives the run; an
//! unprivileged uid, a mount view and cgroups when the judge is root; a user
//! namespace and a mount view built in it when it is not; resource limits always. `--sandbox off`
//! ([`Mode::Off`]) keeps only the limits, and the report says so.

mod cgroup;
mod child;
mod errno;
mod isolation;
mod kept;
mod landlock;
mod lend;
mod limits;
mod measure;
mod named;
pub mod path;
mod pidfd;
mod plain;
mod probe;
mod process;
mod seccomp;
mod slot;
pub mod spawn;
mod stack;
mod starved;
mod stderr;
mod uids;
mod view;
mod watch;
mod zygote;

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub use crate::limit::{Crossed, LimitHit};
pub use lend::{Lender, WINDOW as IDLE_WINDOW};
pub use limits::RunLimits;

/// Whether runs are sandboxed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The strongest isolation available (the default).
    #[default]
    Auto,
    /// Limits only: for debugging the judge, never for untrusted code.
    Off,
}

/// A judge that is stopping (Ctrl-C): set once, every run started through a
/// [`Runner`] holding it ends within about 100 ms with
/// [`SandboxError::Abandoned`] and new ones are refused; such a run's
/// result must not be kept. The same flag tells the judge to start no
/// further test, so there is one way to stop, not two.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The flag itself, for a signal handler to set (a single atomic store).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

/// How runs are made: the mode (`--sandbox`) and the cancellation that
/// ends them, passed to every run rather than held by the process, so two
/// judges in one process (tests, a library user) never share them.
#[derive(Debug, Clone, Default)]
pub struct Runner {
    pub mode: Mode,
    pub cancel: Cancel,
    /// Added to the judge's scheduling niceness for every run (as `nice -n`
    /// does; 0: the judge's own, at most 19 in all). A server that judges on the machine it
    /// answers pages from gives its runs a lower priority, so that its own
    /// threads win a busy CPU. Verdicts do not change: CPU limits count CPU
    /// time, and the wall-clock limit does not count time a run spent
    /// ready to run but waiting for a CPU (see `starved.rs`).
    pub niceness: i32,
}

impl Runner {
    pub fn new(mode: Mode) -> Runner {
        Runner {
            mode,
            cancel: Cancel::default(),
            niceness: 0,
        }
    }

    /// Runs `spec` to completion, sandboxed unless the mode is [`Mode::Off`].
    pub fn run(&self, spec: &RunSpec) -> Result<RunOutcome, SandboxError> {
        self.start(spec, None, None)
    }

    /// [`Runner::run`], telling `lender` when the run is seen idle (not
    /// using a CPU, nor waiting for one) and when it computes again: see
    /// [`Lender`]. The run itself, its limits and its figures are the same.
    pub fn run_lending(
        &self,
        spec: &RunSpec,
        lender: &dyn Lender,
    ) -> Result<RunOutcome, SandboxError> {
        self.start(spec, None, Some(lender))
    }

    /// Runs `spec` with its stdin and stdout connected to `pipes` (the paths
    /// `spec.stdin` and `spec.stdout` are not used); stderr is kept as always.
    pub fn run_connected(&self, spec: &RunSpec, pipes: Pipes) -> Result<RunOutcome, SandboxError> {
        self.start(spec, Some(pipes), None)
    }

    /// Runs `spec` (its `workdir` an empty folder) with a copy of the
    /// files of `kept` in its working folder, and copies what the program
    /// left there back into `kept` (new names only; regular files and
    /// folders, never links). For a compile: its products outlive the run,
    /// yet everything it writes is bounded by its output limit, as root
    /// and as an ordinary user with user namespaces by a tmpfs of that size
    /// the kernel enforces (files without a name included); elsewhere by
    /// the walk of the folder. See `kept.rs`.
    pub fn run_kept(&self, spec: &RunSpec, kept: &Path) -> Result<RunOutcome, SandboxError> {
        if self.cancel.is_cancelled() {
            return Err(SandboxError::Abandoned);
        }
        match self.mode {
            Mode::Off => {
                let copy = |from: &Path, to: &Path| -> std::io::Result<()> {
                    let (from, to) = (kept::open_dir(from)?, kept::open_dir(to)?);
                    kept::copy_tree(
                        std::os::fd::AsFd::as_fd(&from),
                        std::os::fd::AsFd::as_fd(&to),
                        None,
                        None,
                    )
                };
                let setup = |what: &str| {
                    let what = what.to_string();
                    move |source| SandboxError::Setup { what, source }
                };
                copy(kept, &spec.workdir)
                    .map_err(setup("copy the sources into the working folder"))?;
                let outcome = plain::run(spec, None, &self.cancel, None, self.niceness)?;
                copy(&spec.workdir, kept).map_err(setup("keep what the run left in its folder"))?;
                Ok(outcome)
            }
            Mode::Auto => process::run(spec, None, &self.cancel, Some(kept), None, self.niceness),
        }
    }

    fn start(
        &self,
        spec: &RunSpec,
        pipes: Option<Pipes>,
        lender: Option<&dyn Lender>,
    ) -> Result<RunOutcome, SandboxError> {
        if self.cancel.is_cancelled() {
            return Err(SandboxError::Abandoned);
        }
        match self.mode {
            Mode::Off => plain::run(spec, pipes, &self.cancel, lender, self.niceness),
            Mode::Auto => process::run(spec, pipes, &self.cancel, None, lender, self.niceness),
        }
    }

    /// The mechanisms a run under `l` gets in this mode, for reports.
    pub fn isolation_in_force(&self, l: &RunLimits) -> Vec<&'static str> {
        isolation::in_force(self.mode, l)
    }

    /// The protections of SECURITY.md that runs lack here (empty as root
    /// with Landlock and cgroups), each saying what a program can then do.
    /// `grade` and `contest` refuse untrusted code while this is not empty,
    /// unless told otherwise. `--sandbox off` is its own explicit choice
    /// and is not listed here.
    pub fn weaknesses(&self) -> Vec<&'static str> {
        match self.mode {
            Mode::Off => Vec::new(),
            Mode::Auto => isolation::weaknesses_of(
                probe::abilities(),
                cgroup::runs_lacked_groups(),
                isolation::user_view(),
            ),
        }
    }

    /// Tells the sandbox about the judge's own folders: `cache` (compiled
    /// programs in `bin`, compilations in `tmp`, everything else private to
    /// the judge) and `workroot` (run folders). The mount view hides the
    /// rest of the cache from runs (as root, and as an ordinary user with
    /// user namespaces). As root, runs execute as another uid; this also
    /// makes the folders passable for them (never listable). Does nothing
    /// for a user without namespaces.
    pub fn register_judge_folders(&self, cache: &Path, workroot: &Path) -> std::io::Result<()> {
        // Off first: the probe (cgroups made and removed) is not for nothing.
        if self.mode == Mode::Off {
            return Ok(());
        }
        let a = probe::abilities();
        if !(a.root || a.user_namespace) {
            return Ok(());
        }
        view::register_root(cache, &[("bin", false), ("tmp", true)], a.root)?;
        view::register_root(workroot, &[], a.root)
    }

    /// Tells the sandbox about a folder runs never need: a problem's (its
    /// answers and handmade tests), a problems folder, a class or contest
    /// folder (others' submissions). Landlock already denies opening it;
    /// the mount view (as root, and as an ordinary user with namespaces)
    /// shows it empty, so that a run cannot even `stat` an answer, whose
    /// size may be the answer. Every program the judge runs reads its
    /// files from the cache, never in place. Does nothing where there is
    /// no view.
    pub fn hide_folder(&self, folder: &Path) -> std::io::Result<()> {
        if self.mode == Mode::Off {
            return Ok(());
        }
        let a = probe::abilities();
        if !(a.root || a.user_namespace) {
            return Ok(());
        }
        view::register_hidden(folder)
    }
}

/// Runs `spec` sandboxed, never cancelled: [`Runner::run`] of the default
/// runner, for a caller with no mode or judge of its own.
pub fn run(spec: &RunSpec) -> Result<RunOutcome, SandboxError> {
    Runner::default().run(spec)
}

/// The standard streams of a run that talks to the judge while it runs
/// (an interactive problem): pipes instead of the files of [`RunSpec`].
///
/// The judge keeps the other ends. Files stay the rule for every other
/// run (see docs/architecture.md); a connected run's partner is trusted
/// code that reads and writes without blocking, so neither side can wedge
/// the other.
#[derive(Debug)]
pub struct Pipes {
    /// The end the program reads as its stdin (blocking).
    pub stdin: std::os::fd::OwnedFd,
    /// The end the program writes as its stdout (blocking).
    pub stdout: std::os::fd::OwnedFd,
    /// Set by the partner to end the run at once (the game is decided, or
    /// the program was idle too long); the outcome then says it was killed.
    pub stop: Arc<AtomicBool>,
    /// Set when the run is seen to have ended, before its figures are
    /// gathered: which of two connected runs ended first decides an
    /// interactive verdict, and the order results arrive in does not
    /// tell (gathering takes a while).
    pub ended: Arc<std::sync::OnceLock<std::time::Instant>>,
    /// Set to the run's process id once it started, so that the partner
    /// can ask how long the run waited for a CPU ([`run_queue_wait`]) before
    /// it calls the run idle.
    pub pid: Arc<std::sync::OnceLock<libc::pid_t>>,
}

/// The longest time any thread of the process `pid` (and its descendants)
/// was ready to run but waited for a CPU: on a loaded machine, time a
/// program could not use, which the wall limit already discounts.
pub fn run_queue_wait(pid: libc::pid_t) -> std::time::Duration {
    starved::longest_wait(pid)
}

/// Whether process `pid` exists (one we may not signal counts), for the
/// clean-up of what judges that died left behind.
pub fn process_exists(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only asks whether the process exists.
    let found = unsafe { libc::kill(pid, 0) } == 0;
    found || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

use crate::units::Bytes;

/// The whole environment of a run: enough to run, nothing of the judge's.
/// One list for submissions and the problem's own programs (references,
/// validators, checkers, interactors), which all run through the same
/// [`Runner`].
///
/// `PYPY_GC_NURSERY` is PyPy's own default where it cannot tell the CPU's
/// cache: otherwise PyPy sizes its young generation at half the cache
/// `/proc/cpuinfo` reports, and a virtual machine that reports 480 MiB
/// makes every PyPy program take 240 MiB before it does anything, over
/// a 256 MiB memory limit. A program's memory must not depend on what
/// the host's CPU claims. Other programs ignore the variable.
pub fn plain_env(workdir: &Path) -> Vec<(OsString, OsString)> {
    vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("HOME".into(), workdir.as_os_str().to_owned()),
        ("TMPDIR".into(), workdir.as_os_str().to_owned()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
        ("PYPY_GC_NURSERY".into(), "4M".into()),
    ]
}

/// Everything needed to start one run.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// Program and arguments; `argv[0]` is looked up in `PATH` if it has no `/`.
    pub argv: Vec<OsString>,
    /// A fresh, private working folder.
    pub workdir: PathBuf,
    pub stdin: PathBuf,
    pub stdout: PathBuf,
    /// The whole environment of the program: nothing of the judge's leaks in.
    pub env: Vec<(OsString, OsString)>,
    pub limits: RunLimits,
    /// Whether the judge reads what the program leaves in its working
    /// folder (a compile's products, an interactor's feedback), or places
    /// files there for it. Otherwise the folder is scratch: where the
    /// kernel allows, the run gets an empty tmpfs capped at its output
    /// limit over it (see SECURITY.md, disk), and its content is gone
    /// after the run.
    pub keep_workdir: bool,
}

/// How the program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

/// What happened in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub exit: Exit,
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_memory: Bytes,
    pub output_size: Bytes,
    /// The limit at which the sandbox stopped the program, if it did.
    pub limit: Option<LimitHit>,
    /// Every limit the run crossed, the one it was stopped at included
    /// (facts, not a ranking: `verdict::decide` ranks them).
    pub crossed: Crossed,
    /// The first 64 KiB of the program's stderr, with a note of how much
    /// more there was; the rest was discarded unread (see `stderr.rs`).
    /// stderr never counts against a limit.
    pub stderr_head: Vec<u8>,
    pub isolation: Isolation,
}

/// The isolation that was in force, for the report: a verdict is only as
/// trustworthy as the sandbox that produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Isolation {
    pub mechanisms: Vec<&'static str>,
}

/// The mechanism of a run whose working folder was a tmpfs of its own.
const TMPFS_WORKDIR: &str = "tmpfs working folder";

impl Isolation {
    /// Whether the run worked in a tmpfs of its own, attached over its
    /// working folder in the run's mount namespace (removing the folder
    /// is what detaches it there).
    pub fn had_tmpfs_workdir(&self) -> bool {
        self.mechanisms.contains(&TMPFS_WORKDIR)
    }
}

impl fmt::Display for Isolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mechanisms.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&self.mechanisms.join(", "))
        }
    }
}

/// The sandbox could not start or watch the program (not the program's fault).
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot start `{program}`: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("cannot prepare the run ({what}): {source}")]
    Setup {
        what: String,
        source: std::io::Error,
    },
    /// The kernel refused to execute the program (not an executable, an
    /// ELF interpreter it cannot load, too big for the memory limit): the
    /// submission's fault, so a verdict (`RE`), not an internal error.
    #[error("the program could not be started: {source}")]
    NotExecutable {
        program: String,
        source: std::io::Error,
    },
    /// A file the command names (an interpreter's script, a checker's
    /// input) that the run could not open, as the run: the judge's or the
    /// problem's mistake, found before the program started, never the
    /// program's failure.
    #[error("the run cannot read {}: {source}", .path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot prepare the run: {0}")]
    Landlock(#[from] landlock::LandlockError),
    #[error("lost track of the program: {0}")]
    Wait(std::io::Error),
    #[error("the run was stopped because the judge is stopping")]
    Abandoned,
}
