//! A run without the sandbox (`--sandbox off`).
//!
//! The program gets its own process group, resource limits set between
//! clone and exec (see [`super::spawn`]), files for its standard streams (no
//! pipes, so no deadlock and no SIGPIPE for a program that ignores its
//! input), and a pidfd that tells us when it ends without polling. While it
//! runs we look at its CPU time only when it could have used up its budget,
//! so a fast program costs no extra wake-ups. Nothing stops it from reading,
//! writing or connecting anywhere its user may, nor a daemon it detaches
//! from outliving the run.

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};

use super::measure::{cpu_time, crossed, reset_peak_rss, timeval};
use super::path::program_path;
use super::pidfd::{pidfd_open, reap};
use super::spawn::{self, Step};
use super::stderr::ErrorStream;
use super::{
    Cancel, Exit, Isolation, LimitHit, Mode, RunLimits, RunOutcome, RunSpec, SandboxError,
};
use crate::units::Bytes;

/// Runs `spec` to completion and reports what happened; with `pipes`, its
/// stdin and stdout are those pipes instead of files.
pub fn run(
    spec: &RunSpec,
    pipes: Option<super::Pipes>,
    cancel: &Cancel,
    lender: Option<&dyn super::Lender>,
    niceness: i32,
) -> Result<RunOutcome, SandboxError> {
    let (mut errors, stderr) = ErrorStream::new().map_err(setup("create the error pipe"))?;
    let (files, stop, ended, started) = match pipes {
        Some(p) => (
            Streams {
                stdin: File::from(p.stdin),
                stdout: File::from(p.stdout),
                stderr,
            },
            Some(p.stop),
            Some(p.ended),
            Some(p.pid),
        ),
        None => (Streams::open(spec, stderr)?, None, None, None),
    };
    let plan = plan(spec, &files, niceness)?;
    // The files the command names, opened as the program would (the same
    // uid and view here): see `named.rs`.
    let args: Vec<&OsStr> = spec.argv.iter().skip(1).map(|a| a.as_os_str()).collect();
    for path in super::named::files(&args) {
        File::open(&path).map_err(|source| SandboxError::Unreadable { path, source })?;
    }
    let limits = spec.limits;
    let start = Instant::now();
    // The program inherits the judge's peak memory until exec: lower it.
    reset_peak_rss();
    // As in sandboxed runs, a program the kernel will not execute (an empty
    // file, an ELF interpreter it cannot load) is the program's fault.
    let program = || spec.argv[0].to_string_lossy().into_owned();
    let pid = spawn::spawn(&plan).map_err(|source| {
        if spawn::exec_failed(&source) {
            SandboxError::NotExecutable {
                program: program(),
                source,
            }
        } else {
            SandboxError::Spawn {
                program: program(),
                source,
            }
        }
    })?;
    drop(files);
    if let Some(s) = &started {
        let _ = s.set(pid);
    }
    let watched = watch(
        pid,
        &limits,
        start,
        stop.as_deref(),
        &mut errors,
        cancel,
        lender,
    );
    if let Some(e) = &ended {
        let _ = e.set(Instant::now());
    }
    // Whatever happened, nothing the program started may outlive the run.
    kill_group(pid);
    let (status, usage, limit, waited) = watched?;
    let wall = start.elapsed();
    finish(
        spec,
        status,
        &usage,
        (wall, waited),
        limit,
        errors.into_head(),
    )
}

/// The program's standard streams, open in the judge until the child has them.
struct Streams {
    stdin: File,
    stdout: File,
    /// The program's end of the stderr pipe (see [`super::stderr`]).
    stderr: OwnedFd,
}

impl Streams {
    fn open(spec: &RunSpec, stderr: OwnedFd) -> Result<Streams, SandboxError> {
        Ok(Streams {
            stdin: File::open(&spec.stdin).map_err(setup("open the input"))?,
            stdout: File::create(&spec.stdout).map_err(setup("create the output file"))?,
            stderr,
        })
    }
}

fn setup(what: &str) -> impl FnOnce(io::Error) -> SandboxError {
    let what = what.to_string();
    move |source| SandboxError::Setup { what, source }
}

fn plan(spec: &RunSpec, files: &Streams, niceness: i32) -> Result<spawn::Plan, SandboxError> {
    let program = program_path(spec)?;
    let c = |s: &OsStr| spawn::c_string(s.as_bytes());
    let argv = spec
        .argv
        .iter()
        .map(|a| c(a))
        .collect::<Result<_, _>>()
        .map_err(setup("arguments"))?;
    let envp = spec
        .env
        .iter()
        .map(|(k, v)| {
            let mut kv = k.as_bytes().to_vec();
            kv.push(b'=');
            kv.extend_from_slice(v.as_bytes());
            spawn::c_string(kv)
        })
        .collect::<Result<_, _>>()
        .map_err(setup("environment"))?;
    let l = &spec.limits;
    // A backstop only: the watcher stops the program at its exact CPU limit.
    let cpu = l.cpu.as_secs() + 2;
    // One byte more than allowed, so that crossing the limit is observable.
    let fsize = l.output.0.saturating_add(1);
    let mut steps = vec![
        Step::NewProcessGroup,
        Step::DieWithParent,
        Step::Dup2(files.stdin.as_raw_fd(), 0),
        Step::Dup2(files.stdout.as_raw_fd(), 1),
        Step::Dup2(files.stderr.as_raw_fd(), 2),
        Step::Chdir(c(spec.workdir.as_os_str()).map_err(setup("working folder"))?),
        Step::Limit(libc::RLIMIT_CPU, cpu, cpu + 1),
        // Deep recursion is legal: the stack is bounded by the memory limit alone.
        Step::Limit(libc::RLIMIT_STACK, libc::RLIM_INFINITY, libc::RLIM_INFINITY),
        Step::Limit(libc::RLIMIT_FSIZE, fsize, fsize),
        Step::Limit(libc::RLIMIT_CORE, 0, 0),
        Step::Nicer(niceness),
    ];
    if let Some(space) = l.address_space {
        steps.push(Step::Limit(libc::RLIMIT_AS, space.0, space.0));
    }
    Ok(spawn::Plan {
        program: c(program.as_os_str()).map_err(setup("program path"))?,
        argv,
        envp,
        steps,
        clone_flags: 0,
    })
}

/// How the program ended, its usage, the limit that stopped it, and how
/// long it waited for a CPU (see [`super::starved`]).
type Watched = (libc::c_int, libc::rusage, Option<LimitHit>, Duration);

/// Waits for the program, stopping it at the CPU or wall limit.
fn watch(
    pid: libc::pid_t,
    limits: &RunLimits,
    start: Instant,
    stop: Option<&std::sync::atomic::AtomicBool>,
    errors: &mut ErrorStream,
    cancel: &Cancel,
    lender: Option<&dyn super::Lender>,
) -> Result<Watched, SandboxError> {
    let pidfd = pidfd_open(pid).map_err(SandboxError::Wait)?;
    let mut idleness = super::lend::Idleness::new();
    let mut limit = None;
    let mut cpu_used = Duration::ZERO;
    let mut waited = Duration::ZERO;
    loop {
        if cancel.is_cancelled() {
            kill_group(pid);
            let _ = reap(pid);
            return Err(SandboxError::Abandoned);
        }
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
            // The partner of a connected run ended it: no limit was hit.
            kill_group(pid);
            break;
        }
        // Waiting for a CPU on a loaded machine is not sleeping.
        let now = start.elapsed();
        let elapsed = super::starved::awake(pid, now, limits.wall);
        waited = waited.max(now.saturating_sub(elapsed));
        if elapsed >= limits.wall {
            limit = Some(LimitHit::Wall);
            break;
        }
        let cpu_left = limits.cpu.saturating_sub(cpu_used);
        if cpu_left.is_zero() {
            limit = Some(LimitHit::Cpu);
            break;
        }
        // Until `cpu_left / 2` of wall time passes, even two busy threads
        // cannot have used the budget up; never check more often than 5 ms,
        // and at least every 100 ms (a judge that is stopping waits no longer).
        let nap = (cpu_left / 2)
            .clamp(Duration::from_millis(5), Duration::from_millis(100))
            .min(limits.wall - elapsed);
        let ended = super::stderr::wait(&[pidfd.as_raw_fd()], errors, nap);
        if ended.map_err(SandboxError::Wait)?.is_some() {
            break;
        }
        // Only now can the budget be spent: look at the real figure.
        cpu_used = cpu_time(pid);
        idleness.tell(lender, start.elapsed(), &mut || {
            cpu_used + super::starved::longest_wait(pid)
        });
    }
    if limit.is_some() {
        kill_group(pid);
    }
    let (status, usage) = reap(pid).map_err(SandboxError::Wait)?;
    Ok((status, usage, limit, waited))
}

fn kill_group(pid: libc::pid_t) {
    // SAFETY: signalling our own child's process group; ESRCH is harmless.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

fn finish(
    spec: &RunSpec,
    status: libc::c_int,
    usage: &libc::rusage,
    (wall, waited): (Duration, Duration),
    limit: Option<LimitHit>,
    stderr_head: Vec<u8>,
) -> Result<RunOutcome, SandboxError> {
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    let cpu = timeval(usage.ru_utime) + timeval(usage.ru_stime);
    let peak_memory = Bytes((usage.ru_maxrss.max(0) as u64) * 1024);
    let output_size = Bytes(std::fs::metadata(&spec.stdout).map_or(0, |m| m.len()));
    // Time spent waiting for a CPU does not count against the wall limit.
    let awake = wall.saturating_sub(waited);
    let crossed = crossed(
        limit,
        exit,
        cpu,
        output_size,
        peak_memory,
        awake,
        &spec.limits,
    );
    Ok(RunOutcome {
        exit,
        cpu,
        wall,
        peak_memory,
        output_size,
        limit,
        crossed,
        stderr_head,
        isolation: Isolation {
            mechanisms: super::isolation::in_force(Mode::Off, &spec.limits),
        },
    })
}
