//! A process that lives in a slot's cgroups and starts that slot's runs.
//!
//! Moving a process into a cgroup costs more than a trivial run (and
//! through `cgroup.procs`, or on older kernels, it takes the cgroup
//! threadgroup lock for writing, which waits for an RCU grace period:
//! milliseconds). So a run is not
//! moved into its groups but born there: each slot has a *zygote* that
//! joined the groups once (through `tasks`: see `Groups::join`), shares the judge's memory (`CLONE_VM`, so it sees
//! every run's plan as the judge prepared it) and, on request, clones the
//! run's `init` with `CLONE_PARENT`, which makes `init` the judge's own child
//! (the judge waits for it and reaps it as usual). Runs without cgroups go
//! through one shared zygote all the same, for the reason below.
//!
//! The zygote shares the judge's descriptor table too (`CLONE_FILES`), so
//! that an `init` it clones inherits the descriptors of the run (its
//! streams, its Landlock ruleset) opened after the zygote was made.
//!
//! The zygote runs on a stack of its own and only makes system calls. It is
//! created by one long-lived, parked thread, for two reasons. A child
//! learns of its parent's death per thread: a zygote (and through
//! `CLONE_PARENT` every `init`) has that thread as its parent, and dies with
//! the process, not with whichever worker thread judged first. And a process
//! cloned with `CLONE_VM` keeps its creator's thread pointer, so the C
//! library's `errno` it may write is that parked thread's, which nobody
//! reads, rather than a busy judge thread's.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::child::{self, Plan};
use super::errno::errno;
use super::pidfd::pidfd_open;
use super::stack::{Stack, stack_top};

/// A running zygote.
pub struct Zygote {
    pid: libc::pid_t,
    /// Readable once the zygote has died: its pipes cannot say so, because
    /// the judge shares its descriptor table and so holds their other ends.
    pidfd: OwnedFd,
    request: OwnedFd,
    reply: OwnedFd,
    /// The zygote's ends of the pipes (the descriptor table is shared).
    _theirs: (OwnedFd, OwnedFd),
    /// Its stack and arguments: they must outlive it, so they are only freed
    /// after it is killed.
    _stack: Stack,
    _args: Box<Args>,
    /// Its user namespace, opened on first use (see [`Zygote::user_namespace`]).
    userns: OnceLock<OwnedFd>,
}

/// What the zygote reads at start.
struct Args {
    join: Vec<RawFd>,
    /// `uid_map` and `gid_map` of the user namespace the zygote makes (an
    /// ordinary user's judge), so that each run only needs a pid namespace.
    maps: Option<(Vec<u8>, Vec<u8>)>,
    request: RawFd,
    reply: RawFd,
}

/// One request to the zygote: the plan and the clone flags, or (`plan`
/// null) a tmpfs to make for the judge to fill before the run.
#[repr(C)]
struct Request {
    plan: *const Plan,
    scratch: *const child::Scratch,
    flags: libc::c_int,
}

impl Zygote {
    /// Starts a zygote that joins the groups behind `join` (descriptors of
    /// their `tasks` files). Goes through the spawner thread.
    pub fn start(join: &[RawFd], user_namespace: bool) -> io::Result<Zygote> {
        type Job = (Vec<RawFd>, bool, mpsc::Sender<io::Result<Zygote>>);
        static SPAWNER: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
        let spawner = SPAWNER.get_or_init(|| {
            let (tx, rx) = mpsc::channel::<Job>();
            let _ = std::thread::Builder::new()
                .name("grundy-zygotes".into())
                .spawn(move || {
                    for (join, userns, reply) in rx {
                        let _ = reply.send(Zygote::start_here(join, userns));
                    }
                    // Never end: the zygotes' parent is this thread.
                    loop {
                        std::thread::park();
                    }
                });
            Mutex::new(tx)
        });
        let (tx, rx) = mpsc::channel();
        spawner
            .lock()
            .map_err(|_| io::Error::other("zygote spawner poisoned"))?
            .send((join.to_vec(), user_namespace, tx))
            .map_err(|_| io::Error::other("zygote spawner gone"))?;
        rx.recv()
            .map_err(|_| io::Error::other("zygote spawner gone"))?
    }

    fn start_here(join: Vec<RawFd>, user_namespace: bool) -> io::Result<Zygote> {
        let (req_rd, req_wr) = pipe()?;
        let (rep_rd, rep_wr) = pipe()?;
        let maps = user_namespace.then(|| {
            // SAFETY: getuid and getgid have no preconditions.
            let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
            (
                format!("{uid} {uid} 1").into_bytes(),
                format!("{gid} {gid} 1").into_bytes(),
            )
        });
        let mut flags = libc::CLONE_VM | libc::CLONE_FILES | libc::SIGCHLD;
        if user_namespace {
            // A mount namespace of its own too, owned by the new user
            // namespace: there the runs' working folders can be tmpfs
            // mounts (see `child::Scratch`) without any privilege.
            flags |= libc::CLONE_NEWUSER | libc::CLONE_NEWNS;
        }
        let args = Box::new(Args {
            join,
            maps,
            request: req_rd.as_raw_fd(),
            reply: rep_wr.as_raw_fd(),
        });
        let stack = Stack::take();
        // SAFETY: the zygote only makes system calls, on its own stack, and
        // reads `args`; both outlive it (kept in the returned value until
        // after it is killed).
        let pid = unsafe {
            libc::clone(
                zygote_main,
                stack_top(&stack),
                flags,
                (&*args as *const Args).cast_mut().cast(),
            )
        };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        let pidfd = match pidfd_open(pid) {
            Ok(fd) => fd,
            Err(e) => {
                // SAFETY: ending and reaping the zygote we just made.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), libc::__WALL);
                }
                return Err(e);
            }
        };
        let z = Zygote {
            pid,
            pidfd,
            request: req_wr,
            reply: rep_rd,
            _theirs: (req_rd, rep_wr),
            _stack: stack,
            _args: args,
            userns: OnceLock::new(),
        };
        // The zygote answers 0 once it has joined its groups.
        z.read_reply().map(|_| z)
    }

    /// Clones the `init` of a run from the zygote; returns its pid. `plan`
    /// (with `init`'s stack) must live until `init` has been reaped.
    pub fn spawn(&self, plan: &Plan, flags: libc::c_int) -> io::Result<libc::pid_t> {
        self.request(Request {
            plan: plan as *const Plan,
            scratch: std::ptr::null(),
            flags,
        })
    }

    /// Has the zygote make the tmpfs of `s` (in its namespaces, where it
    /// may) and store its descriptor in `s.fd`, which the judge then
    /// shares: a kept run's folder, filled by the judge before the run.
    pub fn make_scratch(&self, s: &child::Scratch) -> io::Result<()> {
        self.request(Request {
            plan: std::ptr::null(),
            scratch: s as *const child::Scratch,
            flags: 0,
        })
        .map(|_| ())
    }

    /// The zygote's user namespace (an ordinary user's runs live in it),
    /// opened once: runs ask for it every time.
    pub fn user_namespace(&self) -> io::Result<&OwnedFd> {
        if let Some(fd) = self.userns.get() {
            return Ok(fd);
        }
        let fd = std::fs::File::open(format!("/proc/{}/ns/user", self.pid)).map(OwnedFd::from)?;
        Ok(self.userns.get_or_init(|| fd))
    }

    fn request(&self, req: Request) -> io::Result<libc::pid_t> {
        let size = std::mem::size_of::<Request>();
        // SAFETY: writing a plain struct to our pipe.
        let n = unsafe {
            libc::write(
                self.request.as_raw_fd(),
                (&req as *const Request).cast(),
                size,
            )
        };
        if n != size as isize {
            return Err(io::Error::last_os_error());
        }
        self.read_reply()
    }

    /// Whether the zygote is still there to take requests.
    pub fn alive(&self) -> bool {
        let mut p = libc::pollfd {
            fd: self.pidfd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd; a zero timeout never blocks.
        unsafe { libc::poll(&mut p, 1, 0) == 0 }
    }

    /// Reads the zygote's answer, or fails if it dies first. Never a plain
    /// blocking read: the write end of the reply pipe is in the judge's own
    /// descriptor table, so a dead zygote would never close it.
    fn read_reply(&self) -> io::Result<libc::pid_t> {
        let started = std::time::Instant::now();
        loop {
            let mut fds = [
                libc::pollfd {
                    fd: self.reply.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.pidfd.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // SAFETY: two valid pollfds in a local array.
            let r = unsafe { libc::poll(fds.as_mut_ptr(), 2, 1000) };
            if r < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            }
            if fds[0].revents & libc::POLLIN != 0 {
                break;
            }
            if fds[1].revents != 0 {
                return Err(io::Error::other("the zygote died"));
            }
            if started.elapsed() > REPLY_PATIENCE {
                // Alive but silent: not trusted again (the caller drops it,
                // which kills it).
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the zygote did not answer",
                ));
            }
        }
        let mut r: i64 = 0;
        // SAFETY: reading one i64 into a local; the pipe is readable.
        let n = unsafe { libc::read(self.reply.as_raw_fd(), (&mut r as *mut i64).cast(), 8) };
        if n != 8 {
            return Err(io::Error::other("the zygote sent a short reply"));
        }
        if r < 0 {
            return Err(io::Error::from_raw_os_error(-r as i32));
        }
        Ok(r as libc::pid_t)
    }
}

/// How long a live zygote may take to answer one request (a `clone`): far
/// beyond any load, so only a broken zygote reaches it.
const REPLY_PATIENCE: Duration = Duration::from_secs(60);

/// The zygote of runs that have no slot of their own (no cgroups), made on
/// first use and again after a failure. For an ordinary user's judge it
/// lives in a user namespace made once, which is cheaper than one per run;
/// the runs still get a pid namespace each.
static SHARED: Mutex<Option<Zygote>> = Mutex::new(None);

/// Runs `f` on the shared zygote (started if there is none or it died);
/// one that fails is not trusted again.
fn with_shared<T>(user_namespace: bool, f: impl FnOnce(&Zygote) -> io::Result<T>) -> io::Result<T> {
    let mut shared = SHARED
        .lock()
        .map_err(|_| io::Error::other("zygote poisoned"))?;
    if shared.as_ref().is_some_and(|z| !z.alive()) {
        *shared = None;
    }
    if shared.is_none() {
        *shared = Some(Zygote::start(&[], user_namespace)?);
    }
    let done = match shared.as_ref() {
        Some(z) => f(z),
        None => Err(io::Error::other("no zygote")),
    };
    if done.is_err() {
        *shared = None;
    }
    done
}

/// Starts a run from the shared zygote.
pub fn spawn_shared(
    user_namespace: bool,
    plan: &Plan,
    flags: libc::c_int,
) -> io::Result<libc::pid_t> {
    with_shared(user_namespace, |z| z.spawn(plan, flags))
}

/// Makes the tmpfs of `s` in the shared zygote (see [`Zygote::make_scratch`]).
/// A refusal of the tmpfs (the caller then does without) leaves the
/// zygote in place: it is not broken, and a new one would be a new user
/// namespace, whose runs could not join the view built for this one.
pub fn make_scratch_shared(user_namespace: bool, s: &child::Scratch) -> io::Result<()> {
    with_shared(user_namespace, |z| Ok(z.make_scratch(s)))?
}

/// Calls `f` with the user namespace of the shared zygote of an ordinary
/// user's judge, in which its mount view is built. A failure of `f` leaves
/// the zygote in place.
pub fn with_shared_user_namespace<T>(f: impl FnOnce(&OwnedFd) -> io::Result<T>) -> io::Result<T> {
    with_shared(true, |z| Ok(z.user_namespace().and_then(f)))?
}

impl Drop for Zygote {
    fn drop(&mut self) {
        // SAFETY: ending and reaping our own zygote before its stack is freed.
        unsafe {
            libc::kill(self.pid, libc::SIGKILL);
            libc::waitpid(self.pid, std::ptr::null_mut(), libc::__WALL);
        }
    }
}

fn send(fd: RawFd, v: i64) {
    // SAFETY: writing one i64 from a local.
    unsafe {
        libc::write(fd, (&v as *const i64).cast(), 8);
    }
}

extern "C" fn zygote_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY (whole function): `arg` is the `Args` the judge keeps alive for
    // the zygote's whole life; everything else is a raw system call.
    unsafe {
        let args = &*(arg as *const Args);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if let Some((uid_map, gid_map)) = &args.maps
            && !child::write_user_maps(uid_map, gid_map)
        {
            send(args.reply, -(errno() as i64));
            libc::_exit(1);
        }
        for &fd in &args.join {
            if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                send(args.reply, -(errno() as i64));
                libc::_exit(1);
            }
        }
        send(args.reply, 0);
        loop {
            let mut req = Request {
                plan: std::ptr::null(),
                scratch: std::ptr::null(),
                flags: 0,
            };
            let size = std::mem::size_of::<Request>();
            let n = libc::read(args.request, (&mut req as *mut Request).cast(), size);
            if n == 0 {
                libc::_exit(0);
            }
            if n != size as isize {
                continue;
            }
            if req.plan.is_null() {
                if !req.scratch.is_null() {
                    let s = &*req.scratch;
                    let fd = child::make_scratch(s, None);
                    s.fd.store(fd, std::sync::atomic::Ordering::SeqCst);
                    send(args.reply, if fd < 0 { fd as i64 } else { 0 });
                } else {
                    send(args.reply, -(libc::EINVAL as i64));
                }
                continue;
            }
            let plan = &*req.plan;
            if let Some(s) = &plan.scratch {
                let made = s.fd.load(std::sync::atomic::Ordering::SeqCst);
                if made >= 0 {
                    // Made (and filled) by the judge: only the run's
                    // access to it is left to grant.
                    child::grant_scratch(made, s.landlock_access, plan.ruleset);
                } else {
                    s.fd.store(
                        child::make_scratch(s, plan.ruleset),
                        std::sync::atomic::Ordering::SeqCst,
                    );
                }
            }
            let pid = libc::clone(
                child::init_entry,
                stack_top(&plan.init_stack),
                req.flags | libc::CLONE_VM | libc::CLONE_PARENT | libc::SIGCHLD,
                req.plan.cast_mut().cast(),
            );
            send(
                args.reply,
                if pid < 0 {
                    -(errno() as i64)
                } else {
                    pid as i64
                },
            );
        }
    }
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: a valid array of two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned these descriptors; we own them.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
