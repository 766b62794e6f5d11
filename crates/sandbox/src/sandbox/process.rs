//! A sandboxed run: plan everything in the judge, clone `init` into its
//! namespaces (see [`super::child`]), watch it ([`super::watch`]), reap,
//! and report what [`super::measure`] found.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};

use super::child::{self, Limit, Message, Plan, Stage};
use super::isolation::{prepare_as_root, tidy};
use super::measure::{
    HighWater, crossed, own_hwm, own_peak, own_rss, reset_peak_rss, timeval, tmpfs_usage,
};
use super::path::program_path;
use super::pidfd::reap;
use super::probe::abilities;
use super::stack::Stack;
use super::stderr::ErrorStream;
use super::watch::watch;
use super::{Cancel, Exit, Isolation, Mode, RunLimits, RunOutcome, RunSpec, SandboxError};
use super::{cgroup, landlock, seccomp, slot, zygote};
use crate::units::Bytes;

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
///
/// With `kept`, the run's working folder starts with a copy of that
/// folder's files and what the run leaves is copied back into it (see
/// [`super::kept`]); as root the working folder is then a tmpfs of the
/// output limit, filled before the program starts.
pub fn run(
    spec: &RunSpec,
    pipes: Option<super::Pipes>,
    cancel: &Cancel,
    kept: Option<&std::path::Path>,
    lender: Option<&dyn super::Lender>,
    niceness: i32,
) -> Result<RunOutcome, SandboxError> {
    let a = abilities();
    let program = program_path(spec)?;
    let args: Vec<&OsStr> = spec.argv.iter().skip(1).map(OsString::as_os_str).collect();
    // Resolved once: the read-only folders and the view both need it.
    let real = std::fs::canonicalize(&program).unwrap_or_else(|_| program.clone());
    let read = landlock::command_paths(&real, &args);
    let named = super::named::files(&args);
    let lease = if a.root {
        Some(slot::lease(a.cgroups.as_ref()).map_err(setup("reserve a run slot"))?)
    } else {
        None
    };
    let ids = lease.as_ref().map(|l| (l.id(), l.id()));
    let workdir = std::fs::canonicalize(&spec.workdir).map_err(setup("find the working folder"))?;
    let user_ns = !a.root && a.user_namespace;
    // A kept run's tmpfs first: as an ordinary user the zygote makes it,
    // and the view below belongs to that zygote's user namespace.
    let seeded_scratch = match kept {
        Some(from) => seeded(
            from,
            &workdir,
            &spec.limits,
            ids,
            user_ns,
            landlock::work_access(a.landlock.unwrap_or(0)),
        )?,
        None => None,
    };
    let view_fd = match ids {
        Some((uid, gid)) => Some(prepare_as_root(&workdir, &read, &real, uid, gid)?),
        None if user_ns => super::isolation::prepare_as_user(&read, &real),
        None => None,
    };
    let ruleset = match a.landlock {
        Some(_) => landlock::ruleset(&read, &workdir)?,
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
    let pid_namespace = a.root || user_ns;
    let reads = named
        .iter()
        .map(|p| cstring(p.as_os_str()))
        .collect::<Result<_, _>>()?;
    let plan = Plan {
        path: cstring(program.as_os_str())?,
        argv: null_terminated(&argv),
        envp: null_terminated(&envp),
        reads,
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
        cgroup_join: match (groups, lease.as_ref().is_some_and(|l| l.zygote.is_some())) {
            (Some(g), false) => g.join.iter().map(|f| f.as_raw_fd()).collect(),
            _ => Vec::new(),
        },
        view: view_fd.as_ref().map(|v| v.as_raw_fd()),
        scratch: match kept {
            None => (!spec.keep_workdir && pid_namespace)
                .then(|| {
                    scratch(
                        &spec.limits,
                        ids,
                        landlock::work_access(a.landlock.unwrap_or(0)),
                    )
                })
                .transpose()?,
            Some(_) => seeded_scratch,
        },
        ruleset: ruleset.as_ref().map(|r| r.as_raw_fd()),
        // Socket pairs only for what may not have an address-space cap:
        // the JVM needs one (see `seccomp::denied`).
        seccomp: if a.seccomp {
            seccomp::filters(spec.limits.address_space.is_none())
        } else {
            None
        },
        pid_namespace,
        niceness,
        init_stack: Stack::take(),
        stack: Stack::take(),
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
        super::isolation::note_scratch_lacked();
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
        together: 0,
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
        cancel,
        lender,
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
        let unreadable = usize::try_from(m.c)
            .ok()
            .and_then(|i| named.get(i))
            .filter(|_| stage == Some(Stage::Read));
        return Err(match (stage, unreadable) {
            (_, Some(path)) => SandboxError::Unreadable {
                path: path.clone(),
                source,
            },
            (Some(Stage::Exec), _) => SandboxError::NotExecutable {
                program: program.display().to_string(),
                source,
            },
            (s, _) => SandboxError::Setup {
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
        // The largest of one process's peak and what its processes held
        // together when the watcher looked.
        None => own_peak(
            (peak_kib.max(0) as u64) * 1024,
            floor.max(own_hwm()),
            sampled.peak,
        )
        .max(sampled.together),
    });
    let output_size = Bytes(std::fs::metadata(&spec.stdout).map_or(0, |m| m.len()));
    let oom = groups.is_some_and(cgroup::Groups::oom_signalled);
    if a.cgroups.is_some() && groups.is_none() {
        cgroup::note_run_without_groups();
    }
    let had_groups = groups.is_some();
    let (in_tmpfs, full) = tmpfs.as_ref().map_or((0, false), tmpfs_usage);
    if let Some(into) = kept {
        let back = || -> io::Result<()> {
            let into = super::kept::open_dir(into)?;
            let from = match &tmpfs {
                Some(fd) => super::kept::open_dir_in(fd)?,
                None => super::kept::open_dir(&workdir)?,
            };
            super::kept::copy_tree(from.as_fd(), into.as_fd(), ids.map(|(uid, _)| uid), None)
        };
        back().map_err(setup("keep what the run left in its folder"))?;
    }
    // With a tmpfs over it, the folder on disk was never the run's to see
    // (attached before the program started): only its own owner is put
    // back, without a walk of what cannot have changed.
    let disk = match &tmpfs {
        Some(_) => {
            super::isolation::untake(&workdir, ids.map(|(uid, _)| uid));
            in_tmpfs
        }
        None => tidy(&workdir, ids.map(|(uid, _)| uid)),
    };
    // stderr never counts against the output limit: it is in memory.
    let stderr_head = errors.into_head();
    // Time spent waiting for a CPU does not count against the wall limit.
    let awake = wall.saturating_sub(waited);
    let mut crossed = crossed(
        limit,
        exit,
        cpu,
        output_size,
        peak_memory,
        awake,
        &spec.limits,
    );
    // The memory group was full (its tasks waited, so the watcher may not
    // have seen it), or the folder holds more than the output limit.
    crossed.memory |= oom;
    crossed.output |= full || disk > spec.limits.output.0;
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
            // What this run got: a slot may lack the cgroups the probe found.
            mechanisms: super::isolation::in_force(Mode::Auto, &spec.limits)
                .into_iter()
                .filter(|m| had_groups || !m.starts_with("cgroups"))
                .filter(|m| !had_groups || *m != "address-space cap")
                .filter(|m| tmpfs.is_some() || *m != super::TMPFS_WORKDIR)
                .collect(),
        },
    })
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

/// The working folder of a kept run (see [`super::kept`]): a tmpfs of the
/// output limit with the files of `from` copied in (the run's), attached
/// over the folder by `init` — made here, in the judge, as root, and by
/// the zygote, in its user namespace, for an ordinary user (`user_ns`);
/// otherwise (or if the kernel refuses one) the files are copied into the
/// folder on disk, where the walk bounds the run.
fn seeded(
    from: &std::path::Path,
    workdir: &std::path::Path,
    l: &RunLimits,
    ids: Option<(u32, u32)>,
    user_ns: bool,
    landlock_access: u64,
) -> Result<Option<child::Scratch>, SandboxError> {
    let copy = |to: &OwnedFd, chown| -> io::Result<()> {
        let from = super::kept::open_dir(from)?;
        super::kept::copy_tree(from.as_fd(), to.as_fd(), None, chown)
    };
    if ids.is_some() || user_ns {
        let s = scratch(l, ids, landlock_access)?;
        let fd = if ids.is_some() {
            child::make_scratch(&s, None)
        } else {
            match zygote::make_scratch_shared(true, &s) {
                Ok(()) => s.fd.swap(-1, std::sync::atomic::Ordering::SeqCst),
                Err(_) => -1,
            }
        };
        if fd >= 0 {
            // SAFETY: make_scratch just made this descriptor for us.
            let mount = unsafe { OwnedFd::from_raw_fd(fd) };
            let root =
                super::kept::open_dir_in(&mount).and_then(|root| copy(&root, ids).map(|()| root));
            if root.is_ok() {
                // `init` attaches it, the zygote grants the run its
                // content in the run's ruleset, and the judge owns it
                // as for any scratch tmpfs.
                s.fd.store(
                    std::os::fd::IntoRawFd::into_raw_fd(mount),
                    std::sync::atomic::Ordering::SeqCst,
                );
                return Ok(Some(s));
            }
        }
    }
    let disk = super::kept::open_dir(workdir).map_err(setup("open the working folder"))?;
    copy(&disk, ids).map_err(setup("copy the sources into the working folder"))?;
    Ok(None)
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
