//! A sandboxed run: prepare everything in the judge, clone `init` into its
//! namespaces (see [`super::child`]), watch the limits, reap, and report.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::child::{self, Limit, Message, Plan, Stage};
use super::plain::{classify, pidfd_open, reap, timeval};
use super::probe::{Abilities, abilities};
use super::stderr::{self as errstream, ErrorStream};
use super::{Exit, Isolation, LimitHit, RunLimits, RunOutcome, RunSpec, SandboxError};
use super::{cgroup, landlock, seccomp, slot, view, zygote};
use crate::units::Bytes;

/// The mechanisms in force for sandboxed runs of this process.
pub fn mechanisms() -> Vec<&'static str> {
    let mut m = mechanisms_of(abilities(), cgroup::runs_lacked_groups());
    let a = abilities();
    if (a.root || a.user_namespace) && !SCRATCH_LACKED.load(std::sync::atomic::Ordering::SeqCst) {
        let at = m.len().saturating_sub(1);
        m.insert(at, "tmpfs working folder");
    }
    m
}

/// Set when a run that should have had a tmpfs working folder went
/// without one (the kernel refused it): the report then stops claiming it.
static SCRATCH_LACKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether runs are held to their memory limit by a memory group (every
/// run so far had one).
pub fn memory_groups() -> bool {
    abilities().cgroups.is_some() && !cgroup::runs_lacked_groups()
}

/// The mechanisms that `a` gives a run; `lacked_groups` says some run had to
/// go without cgroups, so the report must not promise them.
fn mechanisms_of(a: &Abilities, lacked_groups: bool) -> Vec<&'static str> {
    let mut m = Vec::new();
    match a.landlock {
        Some(v) if v >= 6 => m.push("landlock (files, tcp, signals)"),
        Some(v) if v >= 4 => m.push("landlock (files, tcp)"),
        Some(_) => m.push("landlock (files)"),
        None => {}
    }
    if a.seccomp && seccomp::filters().is_some() {
        m.push("seccomp (no sockets)");
    }
    if a.root {
        m.push("pid namespace");
        m.push("unprivileged uid");
        m.push("mount view");
        if a.cgroups.is_some() && !lacked_groups {
            m.push("cgroups (pids, memory, cpu)");
        }
    } else if a.user_namespace {
        m.push("user namespace");
        m.push("pid namespace");
    } else {
        m.push("subreaper");
    }
    m.push("no_new_privs");
    m
}

/// What a run lacks under abilities `a` (see [`super::weaknesses`]).
pub(super) fn weaknesses_of(a: &Abilities, lacked_groups: bool) -> Vec<&'static str> {
    let mut w = Vec::new();
    if a.landlock.is_none() {
        w.push("no Landlock: programs can read and write any file the judge's user can");
    }
    if !a.root {
        w.push(
            "not root: programs run as the judge's user and can stat and chmod its files \
             (the size of a cached answer, the cache's permissions)",
        );
        if !a.user_namespace {
            w.push("no user namespaces: a program's detached processes may outlive its run");
        }
    }
    if !a.root || a.cgroups.is_none() || lacked_groups {
        w.push(
            "no memory cgroup: memory held in several processes or socket buffers is not counted",
        );
    }
    w
}

fn setup(what: &str) -> impl Fn(io::Error) -> SandboxError + '_ {
    move |source| SandboxError::Setup {
        what: what.to_string(),
        source,
    }
}

fn cstring(s: &OsStr) -> Result<CString, SandboxError> {
    CString::new(s.as_bytes()).map_err(|_| SandboxError::Setup {
        what: format!("pass {:?} to the program", s),
        source: io::Error::from(io::ErrorKind::InvalidInput),
    })
}

/// `argv[0]` as a path, looked up in the run's `PATH` if it has no `/`.
fn program_path(spec: &RunSpec) -> Result<PathBuf, SandboxError> {
    let name = spec.argv.first().ok_or_else(|| SandboxError::Spawn {
        program: String::new(),
        source: io::Error::from(io::ErrorKind::InvalidInput),
    })?;
    if name.as_bytes().contains(&b'/') {
        // Relative to the judge's folder, not the run's working folder.
        return std::path::absolute(name).map_err(|source| SandboxError::Spawn {
            program: name.to_string_lossy().into_owned(),
            source,
        });
    }
    let path: OsString = spec
        .env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .or_else(|| std::env::var_os("PATH"))
        .unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| SandboxError::Spawn {
            program: name.to_string_lossy().into_owned(),
            source: io::Error::from(io::ErrorKind::NotFound),
        })
}

fn rlimits(l: &RunLimits, count_tasks: bool) -> Vec<Limit> {
    let lim = |resource, soft: u64, hard: u64| Limit {
        resource,
        soft,
        hard,
    };
    // A backstop only: the watcher stops the run at its exact CPU limit.
    let cpu = l.cpu.as_secs() + 2;
    // One byte more than allowed, so that crossing the limit is observable.
    let fsize = l.output.0.saturating_add(1);
    let mut v = vec![
        lim(libc::RLIMIT_CPU, cpu, cpu + 1),
        // Deep recursion is legal: the stack is bounded by the memory limit alone.
        lim(libc::RLIMIT_STACK, libc::RLIM_INFINITY, libc::RLIM_INFINITY),
        lim(libc::RLIMIT_FSIZE, fsize, fsize),
        lim(libc::RLIMIT_CORE, 0, 0),
        lim(libc::RLIMIT_NOFILE, 1024, 1024),
        lim(libc::RLIMIT_MSGQUEUE, 0, 0),
    ];
    if let Some(space) = l.address_space {
        v.push(lim(libc::RLIMIT_AS, space.0, space.0));
    }
    if count_tasks {
        v.push(lim(
            libc::RLIMIT_NPROC,
            cgroup::MAX_TASKS,
            cgroup::MAX_TASKS,
        ));
    }
    v
}

/// Runs `spec` in the sandbox and reports what happened; with `pipes`, its
/// stdin and stdout are those pipes instead of files.
pub fn run(spec: &RunSpec, pipes: Option<super::Pipes>) -> Result<RunOutcome, SandboxError> {
    let a = abilities();
    let program = program_path(spec)?;
    let args: Vec<&OsStr> = spec.argv.iter().skip(1).map(OsString::as_os_str).collect();
    let read = landlock::command_paths(&program, &args);
    let lease = if a.root {
        Some(slot::lease(a.cgroups.as_ref()).map_err(setup("reserve a run slot"))?)
    } else {
        None
    };
    let ids = lease.as_ref().map(|l| (l.id(), l.id()));
    let workdir = std::fs::canonicalize(&spec.workdir).map_err(setup("find the working folder"))?;
    let view_fd = match ids {
        Some((uid, gid)) => Some(prepare_as_root(&workdir, &read, &program, uid, gid)?),
        None => None,
    };
    let ruleset = match a.landlock {
        Some(_) => landlock::ruleset(&read, &workdir).map_err(|e| SandboxError::Setup {
            what: e,
            source: io::Error::other("landlock"),
        })?,
        None => None,
    };
    let groups = lease.as_ref().and_then(|l| l.groups.as_ref());
    let cpu_before = match groups {
        Some(g) => {
            g.reset(spec.limits.memory.0)
                .map_err(setup("reset the run's cgroups"))?;
            g.clear_oom();
            g.cpu_ns()
        }
        None => None,
    };

    let (stdin, stdout, stop, ended, started) = match pipes {
        Some(p) => (
            File::from(p.stdin),
            File::from(p.stdout),
            Some(p.stop),
            Some(p.ended),
            Some(p.pid),
        ),
        None => (
            File::open(&spec.stdin).map_err(setup("open the input"))?,
            File::create(&spec.stdout).map_err(setup("create the output file"))?,
            None,
            None,
            None,
        ),
    };
    let (mut errors, stderr) = ErrorStream::new().map_err(setup("create the error pipe"))?;
    let (report_rd, report_wr) = pipe().map_err(setup("create the report pipe"))?;
    let argv: Vec<CString> = std::iter::once(Ok(cstring(program.as_os_str())?))
        .chain(args.iter().map(|a| cstring(a)))
        .collect::<Result<_, _>>()?;
    let envp: Vec<CString> = spec
        .env
        .iter()
        .map(|(k, v)| {
            let mut kv = k.clone();
            kv.push("=");
            kv.push(v);
            cstring(&kv)
        })
        .collect::<Result<_, _>>()?;
    let null_terminated = |v: &[CString]| {
        v.iter()
            .map(|c| c.as_ptr())
            .chain(std::iter::once(std::ptr::null()))
            .collect()
    };
    // A run with a memory group is held to its limit there; an address
    // space cap on top would turn a large, lazily used allocation into a
    // failed `malloc` (RE) rather than let the group judge what is touched.
    let confined = RunLimits {
        address_space: spec.limits.address_space.filter(|_| groups.is_none()),
        ..spec.limits
    };
    let user_ns = !a.root && a.user_namespace;
    let pid_namespace = a.root || user_ns;
    let plan = Plan {
        path: cstring(program.as_os_str())?,
        argv: null_terminated(&argv),
        envp: null_terminated(&envp),
        workdir: cstring(workdir.as_os_str())?,
        stdin: stdin.as_raw_fd(),
        stdout: stdout.as_raw_fd(),
        stderr: stderr.as_raw_fd(),
        report: report_wr.as_raw_fd(),
        limits: rlimits(&confined, pid_namespace),
        ids,
        // The shared zygote made the user namespace (see zygote.rs).
        maps: None,
        // Runs are born in their groups (see zygote.rs); joining is the
        // slow path, for a slot without a zygote.
        cgroup_procs: match (groups, lease.as_ref().is_some_and(|l| l.zygote.is_some())) {
            (Some(g), false) => g.procs.iter().map(|f| f.as_raw_fd()).collect(),
            _ => Vec::new(),
        },
        view: view_fd.as_ref().map(|v| v.as_raw_fd()),
        scratch: (!spec.keep_workdir && pid_namespace)
            .then(|| {
                scratch(
                    &spec.limits,
                    ids,
                    landlock::work_access(a.landlock.unwrap_or(0)),
                )
            })
            .transpose()?,
        ruleset: ruleset.as_ref().map(|r| r.as_raw_fd()),
        seccomp: if a.seccomp { seccomp::filters() } else { None },
        pid_namespace,
        init_stack: child::Stack::take(),
        stack: child::Stack::take(),
    };
    let flags = if pid_namespace { libc::CLONE_NEWPID } else { 0 };

    let start = Instant::now();
    reset_peak_rss();
    // Without a memory group the program's `ru_maxrss` is at least the
    // judge's size now (see `reset_peak_rss`): remember it, to tell the
    // program's own peak from the judge's.
    let floor = if groups.is_none() { own_rss() } else { 0 };
    let zygote = lease.as_ref().and_then(|l| l.zygote.as_ref());
    let spawned = match zygote {
        Some(z) => z.spawn(&plan, flags),
        None => zygote::spawn_shared(user_ns, &plan, flags),
    };
    // The tmpfs the zygote made, if it could: its descriptor is ours.
    let tmpfs = plan.scratch.as_ref().and_then(|s| {
        // Read, not taken: `init`, which shares this memory, may not have
        // read it yet to attach the tmpfs (emptying it here made that run
        // write to the disk instead, unbounded).
        let fd = s.fd.load(std::sync::atomic::Ordering::SeqCst);
        // SAFETY: the zygote shares our descriptor table and made this
        // descriptor for us alone.
        (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
    });
    if plan.scratch.is_some() && tmpfs.is_none() && spawned.is_ok() {
        SCRATCH_LACKED.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    let pid = match spawned {
        Ok(pid) => pid,
        Err(source) => {
            if let Some(l) = lease
                && l.zygote.is_some()
            {
                l.discard();
            }
            return Err(SandboxError::Spawn {
                program: program.display().to_string(),
                source,
            });
        }
    };
    drop(report_wr);
    drop((stdin, stdout, stderr));
    if let Some(s) = &started {
        let _ = s.set(pid);
    }
    let live_cpu = || match (groups, cpu_before) {
        (Some(g), Some(before)) => g
            .cpu_ns()
            .map(|now| Duration::from_nanos(now.saturating_sub(before))),
        _ => None,
    };
    let mut sampled = HighWater {
        wanted: groups.is_none(),
        program: &program,
        peak: 0,
    };
    let watched = watch(
        pid,
        &spec.limits,
        start,
        &live_cpu,
        &workdir,
        tmpfs.as_ref(),
        groups,
        &mut sampled,
        stop.as_deref(),
        &mut errors,
    );
    if let Some(e) = &ended {
        let _ = e.set(Instant::now());
    }
    // Whatever happened, nothing of the run outlives it: killing init ends
    // its pid namespace.
    // SAFETY: signalling our own child.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    if watched.is_err() {
        // `init` runs on memory of `plan`: it must be gone before `plan` is.
        let _ = reap(pid);
    }
    // init is reaped: with it went its pid namespace and every process of
    // the run, on every path out of here (errors included).
    if let Some(l) = lease.as_ref()
        && pid_namespace
    {
        l.set_empty();
    }
    let (limit, seen_cpu, waited, reaped) = watched?;
    let (_, usage) = reaped;
    let wall = start.elapsed();
    let messages = read_messages(&report_rd);
    if let Some(m) = messages.iter().find(|m| m.kind == child::MSG_FAILED) {
        let stage = Stage::from_i32(m.a);
        let source = io::Error::from_raw_os_error(m.b as i32);
        return Err(match stage {
            Some(Stage::Exec) => SandboxError::NotExecutable {
                program: program.display().to_string(),
                source,
            },
            s => SandboxError::Setup {
                what: s.map_or("start the run", Stage::describe).to_string(),
                source,
            },
        });
    }
    let exited = messages.iter().find(|m| m.kind == child::MSG_EXITED);
    let exit = match exited {
        Some(m) if libc::WIFSIGNALED(m.a) => Exit::Signal(libc::WTERMSIG(m.a)),
        Some(m) => Exit::Code(libc::WEXITSTATUS(m.a)),
        None => Exit::Signal(libc::SIGKILL),
    };
    // init's rusage holds the CPU time of what it reaped, not of what the
    // kernel killed as the namespace ended (those are reaped without
    // accounting): the cgroup, where there is one, counts everything; else
    // the last look at the live processes is a floor.
    let cpu = (timeval(usage.ru_utime) + timeval(usage.ru_stime))
        .max(live_cpu().unwrap_or_default())
        .max(seen_cpu);
    let peak_kib = exited.map_or(usage.ru_maxrss, |m| m.b);
    let peak_memory = Bytes(match groups.and_then(cgroup::Groups::peak_memory) {
        Some(peak) => peak,
        // The judge's other threads may have grown it between the look at
        // its size and the program's `exec`: its own high-water mark since
        // the reset before the spawn bounds what `ru_maxrss` can owe it.
        None => own_peak(
            (peak_kib.max(0) as u64) * 1024,
            floor.max(own_hwm()),
            sampled.peak,
        ),
    });
    let output_size = Bytes(std::fs::metadata(&spec.stdout).map_or(0, |m| m.len()));
    let oom = groups.is_some_and(cgroup::Groups::oom_signalled);
    if a.cgroups.is_some() && groups.is_none() {
        cgroup::note_run_without_groups();
    }
    let had_groups = groups.is_some();
    let (in_tmpfs, full) = tmpfs.as_ref().map_or((0, false), tmpfs_usage);
    let disk = tidy(&workdir, ids.map(|(uid, _)| uid)).saturating_add(in_tmpfs);
    // After the disk is measured: stderr never counts against the output
    // limit, wherever the caller keeps it.
    errors
        .save(&spec.stderr)
        .map_err(setup("save the error output"))?;
    let limit = limit
        .or(oom.then_some(LimitHit::Memory))
        .or_else(|| (full || disk > spec.limits.output.0).then_some(LimitHit::Output))
        .or_else(|| {
            let awake = wall.saturating_sub(waited);
            classify(exit, cpu, output_size, peak_memory, awake, &spec.limits)
        });
    Ok(RunOutcome {
        exit,
        cpu,
        wall,
        peak_memory,
        output_size,
        limit,
        isolation: Isolation {
            // What this run got: a slot may lack the cgroups the probe found.
            mechanisms: super::isolation_in_force(&spec.limits)
                .into_iter()
                .filter(|m| had_groups || !m.starts_with("cgroups"))
                .filter(|m| !had_groups || *m != "address-space cap")
                .filter(|m| tmpfs.is_some() || *m != "tmpfs working folder")
                .collect(),
        },
    })
}

/// Lowers the judge's recorded peak resident size to its current size.
///
/// The program's process shares the judge's memory until it executes the
/// program, and the kernel then folds the peak of that memory into the
/// program's own `ru_maxrss`. Without this, a judge that once held a large
/// file would make every later run look as big; with it, the figure a
/// program reports is its own peak or the judge's current size, whichever
/// is larger (a few MiB, see SECURITY.md).
pub(super) fn reset_peak_rss() {
    use std::io::Write;
    static CLEAR_REFS: std::sync::Mutex<Option<File>> = std::sync::Mutex::new(None);
    if let Ok(mut f) = CLEAR_REFS.lock() {
        if f.is_none() {
            *f = std::fs::OpenOptions::new()
                .write(true)
                .open("/proc/self/clear_refs")
                .ok();
        }
        if let Some(file) = f.as_mut() {
            // "5": reset the peak resident set size of the process.
            let _ = file.write_all(b"5");
        }
    }
}

/// The judge's peak resident size since the last [`reset_peak_rss`], in
/// bytes (0 when it cannot be read).
fn own_hwm() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kib| kib * 1024)
}

/// The judge's resident size now, in bytes.
fn own_rss() -> u64 {
    let Ok(statm) = std::fs::read_to_string("/proc/self/statm") else {
        return 0;
    };
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    // SAFETY: sysconf has no memory preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    pages * page
}

/// A judge bigger than this samples the program's own high-water mark
/// while it runs (without a memory group), since `ru_maxrss` cannot then
/// tell a program's peak from the judge's size.
const SAMPLE_ABOVE: u64 = 32 << 20;

/// Slack for what the judge's other threads allocate between the spawn and
/// the program's `exec`.
const FLOOR_SLACK: u64 = 4 << 20;

/// The program's own peak, without a memory group: `ru_maxrss` when it is
/// above the judge's size at the spawn (then it can only be the program's),
/// else the high-water mark sampled while it ran (the program stayed below
/// the judge's size, so `ru_maxrss` is the judge's, not the run's).
fn own_peak(ru_maxrss: u64, floor: u64, sampled: u64) -> u64 {
    if ru_maxrss > floor.saturating_add(FLOOR_SLACK) || floor <= SAMPLE_ABOVE {
        ru_maxrss
    } else {
        sampled
    }
}

/// The program's own high-water mark (`VmHWM`), sampled by the watcher.
struct HighWater<'a> {
    wanted: bool,
    program: &'a Path,
    peak: u64,
}

impl HighWater<'_> {
    /// Looks at the program's process (the child of `init`) once it has
    /// executed the program: before that it shares the judge's memory.
    fn sample(&mut self, init: libc::pid_t) {
        if !self.wanted {
            return;
        }
        let Ok(children) = std::fs::read_to_string(format!("/proc/{init}/task/{init}/children"))
        else {
            return;
        };
        for pid in children
            .split_whitespace()
            .filter_map(|c| c.parse::<libc::pid_t>().ok())
        {
            let exe = std::fs::read_link(format!("/proc/{pid}/exe"));
            if !exe.is_ok_and(|e| e == self.program) {
                continue;
            }
            let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
                continue;
            };
            let kib: u64 = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            self.peak = self.peak.max(kib * 1024);
        }
    }
}

/// As root: the run's uid owns its working folder, every folder it needs
/// can be passed through, and the mount view covers the rest.
fn prepare_as_root(
    workdir: &Path,
    read: &[PathBuf],
    program: &Path,
    uid: u32,
    gid: u32,
) -> Result<OwnedFd, SandboxError> {
    std::os::unix::fs::chown(workdir, Some(uid), Some(gid))
        .map_err(setup("hand the working folder to the run"))?;
    view::open_way(workdir, false).map_err(setup("open the way to the working folder"))?;
    for p in read {
        view::open_way(p, true).map_err(setup("open the way to the program"))?;
    }
    // Toolchains outside the judge's folders (pyenv, rustup) are what the
    // view must show; the judge's folders are registered separately.
    let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    let toolchains: Vec<PathBuf> = read
        .iter()
        .filter(|p| real.starts_with(p))
        .cloned()
        .collect();
    let v = view::view(&toolchains).map_err(|e| SandboxError::Setup {
        what: e,
        source: io::Error::other("mount view"),
    })?;
    // The view's namespace descriptor is shared; the child needs its own
    // number only for the duration of the clone.
    let fd = v.try_clone().map_err(setup("share the mount view"))?;
    Ok(fd)
}

/// A tmpfs for the working folder of a run under `l` (see
/// [`child::Scratch`]): the output limit rounded up to a page. Past it the
/// kernel answers `ENOSPC`; a run that fills it (no free page left) is
/// stopped as over its output limit, whatever it does with the error.
/// Owned by the run's uid as root.
fn scratch(
    l: &RunLimits,
    ids: Option<(u32, u32)>,
    landlock_access: u64,
) -> Result<child::Scratch, SandboxError> {
    let page = 4096u64;
    let size = l.output.0.div_ceil(page).max(1).saturating_mul(page);
    let mut options = vec![
        ("size", size.to_string()),
        // As many entries as the walk of a folder on disk would count
        // (`disk_usage`): inodes cost the kernel memory, not blocks.
        ("nr_inodes", "100000".to_string()),
        ("mode", "0700".to_string()),
    ];
    if let Some((uid, gid)) = ids {
        options.push(("uid", uid.to_string()));
        options.push(("gid", gid.to_string()));
    }
    let options = options
        .into_iter()
        .map(|(k, v)| Ok((cstring(OsStr::new(k))?, cstring(OsStr::new(&v))?)))
        .collect::<Result<_, SandboxError>>()?;
    Ok(child::Scratch {
        options,
        fd: std::sync::atomic::AtomicI32::new(-1),
        landlock_access,
    })
}

/// Bytes held in a run's tmpfs, files without a name included, and
/// whether it is full (the kernel refuses the next page).
fn tmpfs_usage(fd: &OwnedFd) -> (u64, bool) {
    // SAFETY: a plain struct filled by the kernel for a live descriptor.
    unsafe {
        let mut st: libc::statfs = std::mem::zeroed();
        if libc::fstatfs(fd.as_raw_fd(), &mut st) != 0 {
            return (0, false);
        }
        let used = (st.f_blocks.saturating_sub(st.f_bfree)).saturating_mul(st.f_bsize as u64);
        (used, st.f_bfree == 0)
    }
}

/// After a run: the bytes its folder holds, and (as root) what the run uid
/// left there handed back to the judge's uid.
fn tidy(workdir: &Path, run_uid: Option<u32>) -> u64 {
    use std::os::unix::fs::MetadataExt;
    if let Some(run_uid) = run_uid {
        // SAFETY: geteuid and getegid have no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        // Only what the run owns: a hard link it made to someone else's
        // file must not hand that file to the judge.
        for e in walkdir::WalkDir::new(workdir)
            .into_iter()
            .filter_map(Result::ok)
        {
            if e.metadata().is_ok_and(|m| m.uid() == run_uid) {
                let _ = std::os::unix::fs::lchown(e.path(), Some(uid), Some(gid));
            }
        }
    }
    disk_usage(workdir)
}

/// Bytes a folder holds (allocated blocks); huge when it cannot be walked
/// within a sane number of entries.
fn disk_usage(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut total = 0u64;
    for (n, e) in walkdir::WalkDir::new(dir).into_iter().enumerate() {
        if n > 100_000 {
            return u64::MAX;
        }
        if let Ok(m) = e.and_then(|e| e.metadata()) {
            total = total.saturating_add(m.blocks() * 512);
        }
    }
    total
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: a valid array of two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned these descriptors; we own them.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn read_messages(fd: &OwnedFd) -> Vec<Message> {
    let mut out = Vec::new();
    loop {
        let mut m = Message::default();
        let size = std::mem::size_of::<Message>();
        // SAFETY: reading at most one message into a local struct.
        let n = unsafe { libc::read(fd.as_raw_fd(), (&mut m as *mut Message).cast(), size) };
        if n != size as isize {
            return out;
        }
        out.push(m);
    }
}

type Reaped = (libc::c_int, libc::rusage);

/// Why [`wait_any`] returned.
enum Woke {
    Ended,
    OutOfMemory,
    Timeout,
}

/// Waits until `init` ends (its pidfd is readable), the run's memory group
/// signals that it is out of memory, or `timeout` passes, draining the
/// run's stderr meanwhile.
fn wait_any(
    pidfd: &OwnedFd,
    oom: Option<&OwnedFd>,
    errors: &mut ErrorStream,
    timeout: Duration,
) -> io::Result<Woke> {
    let mut fds = vec![pidfd.as_raw_fd()];
    fds.extend(oom.map(AsRawFd::as_raw_fd));
    // The end of the run first: a run whose group ran out of memory is a
    // memory limit hit all the same (see `Groups::oom_signalled`).
    Ok(match errstream::wait(&fds, errors, timeout)? {
        Some(0) => Woke::Ended,
        Some(_) => Woke::OutOfMemory,
        None => Woke::Timeout,
    })
}

/// Waits for `init`, stopping the run at the CPU, wall, disk or memory
/// limit (the last through the run's memory group, whose tasks wait rather
/// than die when it is full: see [`cgroup`]).
// One more than clippy's default: `stop` is the partner's handle of a
// connected run, which only this loop can honour.
#[allow(clippy::too_many_arguments)]
fn watch(
    pid: libc::pid_t,
    limits: &RunLimits,
    start: Instant,
    live_cpu: &dyn Fn() -> Option<Duration>,
    workdir: &Path,
    tmpfs: Option<&OwnedFd>,
    groups: Option<&cgroup::Groups>,
    hwm: &mut HighWater,
    stop: Option<&std::sync::atomic::AtomicBool>,
    errors: &mut ErrorStream,
) -> Result<(Option<LimitHit>, Duration, Duration, Reaped), SandboxError> {
    let pidfd = pidfd_open(pid).map_err(SandboxError::Wait)?;
    let oom_event = groups.map(cgroup::Groups::oom_event);
    let mut limit = None;
    let mut seen = Duration::ZERO;
    let mut waited = Duration::ZERO;
    loop {
        if super::abandoned() {
            // The caller kills `init`, which ends the run, and reaps it.
            return Err(SandboxError::Abandoned);
        }
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
            // The partner of a connected run ended it: no limit was hit.
            // SAFETY: signalling our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            break;
        }
        // Waiting for a CPU on a loaded machine is not sleeping.
        let now = start.elapsed();
        let awake = super::starved::awake(pid, now, limits.wall);
        waited = waited.max(now.saturating_sub(awake));
        if awake >= limits.wall {
            limit = Some(LimitHit::Wall);
            break;
        }
        let elapsed = awake;
        hwm.sample(pid);
        let used = live_cpu().unwrap_or_else(|| tree_cpu(pid));
        seen = seen.max(used);
        let cpu_left = limits.cpu.saturating_sub(used);
        if cpu_left.is_zero() {
            limit = Some(LimitHit::Cpu);
            break;
        }
        // A tmpfs is measured in one system call, and with what has no
        // name; a folder on disk by a walk, not in the first moments.
        let over = match tmpfs {
            Some(fd) => tmpfs_usage(fd).1,
            None => elapsed > Duration::from_millis(20) && disk_usage(workdir) > limits.output.0,
        };
        if over {
            limit = Some(LimitHit::Output);
            break;
        }
        // Until `cpu_left / 2` of wall time passes, even two busy threads
        // cannot have used the budget up; never check more often than 5 ms,
        // and look at the disk at least every 100 ms.
        let nap = (cpu_left / 2)
            .clamp(Duration::from_millis(5), Duration::from_millis(100))
            .min(limits.wall - elapsed);
        match wait_any(&pidfd, oom_event, errors, nap).map_err(SandboxError::Wait)? {
            Woke::Ended => break,
            Woke::OutOfMemory => {
                limit = Some(LimitHit::Memory);
                break;
            }
            Woke::Timeout => {}
        }
    }
    if limit.is_some() {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let reaped = reap(pid).map_err(SandboxError::Wait)?;
    Ok((limit, seen, waited, reaped))
}

/// CPU time of `pid` and all its descendants (live ones from /proc, ended
/// ones through the times of those that reaped them).
fn tree_cpu(pid: libc::pid_t) -> Duration {
    let mut total = Duration::ZERO;
    let mut todo = vec![pid];
    let mut seen = 0;
    while let Some(p) = todo.pop() {
        seen += 1;
        if seen > 4096 {
            break;
        }
        total += proc_cpu(p);
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for t in tasks.filter_map(Result::ok) {
            if let Ok(children) = std::fs::read_to_string(t.path().join("children")) {
                todo.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<libc::pid_t>().ok()),
                );
            }
        }
    }
    total
}

/// utime + stime + cutime + cstime of one process.
fn proc_cpu(pid: libc::pid_t) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return Duration::ZERO;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = [11, 12, 13, 14]
        .iter()
        .filter_map(|&i| f.get(i).and_then(|s| s.parse::<u64>().ok()))
        .sum();
    Duration::from_secs_f64(ticks as f64 / super::plain::clock_ticks())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root_with_groups() -> Abilities {
        Abilities {
            landlock: Some(6),
            seccomp: false,
            root: true,
            user_namespace: false,
            cgroups: Some(cgroup::Hierarchies {
                pids: "/sys/fs/cgroup/pids".into(),
                memory: "/sys/fs/cgroup/memory".into(),
                cpuacct: "/sys/fs/cgroup/cpuacct".into(),
            }),
        }
    }

    #[test]
    fn cgroups_are_claimed_only_while_every_run_had_them() {
        let a = root_with_groups();
        let claims = |lacked| {
            mechanisms_of(&a, lacked)
                .iter()
                .any(|m| m.starts_with("cgroups"))
        };
        assert!(claims(false));
        assert!(!claims(true), "{:?}", mechanisms_of(&a, true));
        // The rest of the line stays as it was.
        let mut without = mechanisms_of(&a, false);
        without.retain(|m| !m.starts_with("cgroups"));
        assert_eq!(without, mechanisms_of(&a, true));
    }

    #[test]
    fn weaknesses_name_what_an_ordinary_user_lacks() {
        let root = root_with_groups();
        assert!(weaknesses_of(&root, false).is_empty());
        assert_eq!(weaknesses_of(&root, true).len(), 1);
        let mut user = root_with_groups();
        user.root = false;
        user.user_namespace = true;
        let w = weaknesses_of(&user, false);
        assert!(w.iter().any(|x| x.contains("chmod")), "{w:?}");
        assert!(w.iter().any(|x| x.contains("memory cgroup")), "{w:?}");
        user.user_namespace = false;
        user.landlock = None;
        assert_eq!(weaknesses_of(&user, false).len(), 4);
    }

    #[test]
    fn an_ordinary_user_never_gets_root_mechanisms() {
        let mut a = root_with_groups();
        a.root = false;
        a.user_namespace = true;
        let m = mechanisms_of(&a, false);
        assert!(m.contains(&"user namespace"), "{m:?}");
        assert!(
            !m.iter()
                .any(|x| x.starts_with("cgroups") || *x == "unprivileged uid")
        );
    }
}
