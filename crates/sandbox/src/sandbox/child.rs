//! The two processes between the judge and the program.
//!
//! The judge clones `init`, which is pid 1 of a new pid namespace (in a new
//! user namespace too when the judge is not root). `init` joins the run's
//! cgroups and the mount view, then forks the program's process, which
//! drops everything it can drop and executes the program. When the program
//! ends, `init` reports how and exits; the kernel then kills every process
//! left in the namespace, detached daemons included. Killing `init` (at a
//! limit) kills the whole run the same way.
//!
//! `init` shares the judge's memory (`CLONE_VM`, so starting a run costs
//! the same whatever the judge's size) and the program's process shares it
//! until it executes the program. Both therefore make raw system calls on
//! memory prepared beforehand and never allocate, lock, unwind or write
//! anything but their own stacks (and the `errno` of the parked thread
//! whose thread pointer they inherit, see the zygote, `zygote.rs`).

use std::ffi::CString;
use std::os::fd::RawFd;

use super::errno::errno;
use super::seccomp::Filters;
use super::stack::{Stack, stack_top};

/// Where a child failed, sent to the judge with the error number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum Stage {
    UserNamespace = 1,
    Cgroup,
    View,
    Scratch,
    Fork,
    Streams,
    Limits,
    WorkingFolder,
    Identity,
    NoNewPrivileges,
    Landlock,
    Seccomp,
    Read,
    Exec,
}

impl Stage {
    pub fn from_i32(n: i32) -> Option<Stage> {
        use Stage::*;
        [
            UserNamespace,
            Cgroup,
            View,
            Scratch,
            Fork,
            Streams,
            Limits,
            WorkingFolder,
            Identity,
            NoNewPrivileges,
            Landlock,
            Seccomp,
            Read,
            Exec,
        ]
        .into_iter()
        .find(|s| *s as i32 == n)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Stage::UserNamespace => "set up the user namespace",
            Stage::Cgroup => "join the run's cgroups",
            Stage::View => "enter the mount view",
            Stage::Scratch => "mount the working folder's tmpfs",
            Stage::Fork => "start the program's process",
            Stage::Streams => "connect the standard streams",
            Stage::Limits => "set resource limits",
            Stage::WorkingFolder => "enter the working folder",
            Stage::Identity => "switch to the run's uid",
            Stage::NoNewPrivileges => "set no_new_privs",
            Stage::Landlock => "enforce the Landlock ruleset",
            Stage::Seccomp => "install the seccomp filter",
            Stage::Read => "open a file the command names",
            Stage::Exec => "execute the program",
        }
    }
}

/// Message kinds on the report pipe.
pub const MSG_FAILED: i32 = 1;
pub const MSG_EXITED: i32 = 2;

/// One message from `init` or the program's process to the judge.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Message {
    pub kind: i32,
    /// `MSG_FAILED`: the stage; `MSG_EXITED`: the wait status.
    pub a: i32,
    /// `MSG_FAILED`: errno; `MSG_EXITED`: the program's peak RSS in KiB.
    pub b: i64,
    /// `MSG_FAILED` at [`Stage::Read`]: which of [`Plan::reads`].
    pub c: i64,
}

/// A resource limit to set.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub resource: libc::__rlimit_resource_t,
    pub soft: u64,
    pub hard: u64,
}

/// Everything the children need, prepared by the judge before the clone.
pub struct Plan {
    pub path: CString,
    pub argv: Vec<*const libc::c_char>,
    pub envp: Vec<*const libc::c_char>,
    /// The files the command names (see [`super::named`]): each is opened
    /// for reading as the run, everything in force, before the program
    /// is executed.
    pub reads: Vec<CString>,
    pub workdir: CString,
    pub stdin: RawFd,
    pub stdout: RawFd,
    pub stderr: RawFd,
    pub report: RawFd,
    pub limits: Vec<Limit>,
    /// Run as this uid and gid (a root judge).
    pub ids: Option<(u32, u32)>,
    /// `uid_map` and `gid_map` lines of a new user namespace.
    pub maps: Option<(Vec<u8>, Vec<u8>)>,
    pub cgroup_join: Vec<RawFd>,
    pub view: Option<RawFd>,
    /// A tmpfs of the run's size cap over its working folder.
    pub scratch: Option<Scratch>,
    pub ruleset: Option<RawFd>,
    pub seccomp: Option<&'static Filters>,
    /// Whether `init` is pid 1 of its own namespace; if not it is a
    /// subreaper and kills what is left itself.
    pub pid_namespace: bool,
    /// Added to the program's scheduling niceness (see `Runner::niceness`).
    pub niceness: i32,
    /// The stack `init` runs on: it shares the judge's memory.
    pub init_stack: Stack,
    /// The stack the program's process starts on (it shares `init`'s
    /// memory until it executes the program).
    pub stack: Stack,
}

/// A tmpfs for the run's working folder, capped at the run's disk limit:
/// the kernel then bounds everything the run writes there, files without a
/// name (`O_TMPFILE`, unlinked while open) and paths deeper than `PATH_MAX`
/// included, which no walk of the folder can see.
///
/// The zygote makes it (new mount API: `fsopen`, `fsconfig`, `fsmount`),
/// because the zygote has the privilege to (as root, or as the owner of the
/// user and mount namespaces of an ordinary user's runs) and shares the
/// judge's descriptor table: the detached mount's descriptor is then the
/// judge's too, which measures the tmpfs with `fstatfs` while the run goes
/// on and after it, whatever namespace the mount lives in. `init` attaches
/// it over the working folder inside the run's mount namespace (the view,
/// or the zygote's own one for an ordinary user without a view), so the
/// judge's folder on disk stays empty; removing that folder detaches the
/// tmpfs (the kernel does so in every namespace) and frees what the run
/// left.
pub struct Scratch {
    /// `fsconfig` string options of the tmpfs (size, inodes, mode, owner).
    pub options: Vec<(CString, CString)>,
    /// Set by the zygote: the detached mount's descriptor, or `-errno`.
    pub fd: std::sync::atomic::AtomicI32,
    /// The Landlock access the run has beneath its working folder. A rule
    /// on the folder on disk does not reach into a file system mounted over
    /// it (Landlock skips hidden mount points), so the zygote adds this one
    /// for the tmpfs's root to the run's ruleset.
    pub landlock_access: u64,
}

/// Makes the detached tmpfs of `s` (in the zygote) and grants the run its
/// content in `ruleset`. Returns its descriptor or `-errno`. Raw system
/// calls on prepared memory only.
pub fn make_scratch(s: &Scratch, ruleset: Option<RawFd>) -> i32 {
    const FSOPEN_CLOEXEC: libc::c_uint = 1;
    const FSCONFIG_SET_STRING: libc::c_uint = 1;
    const FSCONFIG_CMD_CREATE: libc::c_uint = 6;
    const FSMOUNT_CLOEXEC: libc::c_uint = 1;
    const MOUNT_ATTR_NOSUID: libc::c_uint = 0x2;
    const MOUNT_ATTR_NODEV: libc::c_uint = 0x4;
    // SAFETY (whole function): system calls on NUL-terminated strings
    // prepared by the judge; every descriptor made is closed or returned.
    unsafe {
        let fs = libc::syscall(libc::SYS_fsopen, c"tmpfs".as_ptr(), FSOPEN_CLOEXEC) as i32;
        if fs < 0 {
            return -errno();
        }
        let mut ok = true;
        for (k, v) in &s.options {
            if libc::syscall(
                libc::SYS_fsconfig,
                fs,
                FSCONFIG_SET_STRING,
                k.as_ptr(),
                v.as_ptr(),
                0,
            ) != 0
            {
                ok = false;
                break;
            }
        }
        let created = ok
            && libc::syscall(
                libc::SYS_fsconfig,
                fs,
                FSCONFIG_CMD_CREATE,
                std::ptr::null::<libc::c_char>(),
                std::ptr::null::<libc::c_char>(),
                0,
            ) == 0;
        let m = if created {
            libc::syscall(
                libc::SYS_fsmount,
                fs,
                FSMOUNT_CLOEXEC,
                MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
            ) as i32
        } else {
            -1
        };
        let e = errno();
        libc::close(fs);
        if m < 0 {
            return -e.max(1);
        }
        let e = grant_scratch(m, s.landlock_access, ruleset);
        if e < 0 {
            libc::close(m);
            return e;
        }
        m
    }
}

/// Adds `access` beneath the tmpfs `m` to `ruleset`, if there is one.
/// Returns 0 or `-errno`. A raw system call on local memory only.
pub fn grant_scratch(m: RawFd, access: u64, ruleset: Option<RawFd>) -> i32 {
    let Some(rs) = ruleset else {
        return 0;
    };
    #[repr(C, packed)]
    struct PathBeneath {
        allowed_access: u64,
        parent_fd: i32,
    }
    const LANDLOCK_RULE_PATH_BENEATH: libc::c_uint = 1;
    let rule = PathBeneath {
        allowed_access: access,
        parent_fd: m,
    };
    // SAFETY: a system call on a local, fully initialised rule.
    let r = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            rs,
            LANDLOCK_RULE_PATH_BENEATH,
            &rule as *const PathBeneath,
            0u32,
        )
    };
    if r != 0 { -errno().max(1) } else { 0 }
}

/// Entry point of `init` when cloned with `libc::clone`.
pub extern "C" fn init_entry(plan: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `plan` is the `&Plan` the judge keeps alive until it has
    // reaped `init`.
    init(unsafe { &*(plan as *const Plan) })
}

fn send(fd: RawFd, m: Message) {
    let size = std::mem::size_of::<Message>();
    // SAFETY: writing a plain struct to a pipe; a short or failed write
    // only loses the report, which the judge then treats as a crash.
    unsafe {
        libc::write(fd, (&m as *const Message).cast(), size);
    }
}

fn fail(p: &Plan, stage: Stage) -> ! {
    fail_at(p, stage, 0)
}

/// [`fail`], saying which item of the stage failed.
fn fail_at(p: &Plan, stage: Stage, item: usize) -> ! {
    send(
        p.report,
        Message {
            kind: MSG_FAILED,
            a: stage as i32,
            b: errno() as i64,
            c: item as i64,
        },
    );
    // SAFETY: leaving the child without running any destructor.
    unsafe { libc::_exit(127) }
}

fn write_all(path: &std::ffi::CStr, bytes: &[u8]) -> bool {
    // SAFETY: open/write/close on a NUL-terminated path and a live buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let ok = libc::write(fd, bytes.as_ptr().cast(), bytes.len()) == bytes.len() as isize;
        libc::close(fd);
        ok
    }
}

/// Maps our own uid and gid in a user namespace we just entered.
pub fn write_user_maps(uid_map: &[u8], gid_map: &[u8]) -> bool {
    write_all(c"/proc/self/setgroups", b"deny")
        && write_all(c"/proc/self/uid_map", uid_map)
        && write_all(c"/proc/self/gid_map", gid_map)
}

/// pid 1 of the run. Never returns.
pub fn init(p: &Plan) -> ! {
    // SAFETY (whole function): raw system calls on prepared memory.
    unsafe {
        // If the judge dies, the run dies with it.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if let Some((uid_map, gid_map)) = &p.maps
            && !write_user_maps(uid_map, gid_map)
        {
            fail(p, Stage::UserNamespace);
        }
        for &fd in &p.cgroup_join {
            if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                fail(p, Stage::Cgroup);
            }
        }
        if let Some(fd) = p.view
            && libc::setns(fd, libc::CLONE_NEWNS) != 0
        {
            fail(p, Stage::View);
        }
        if let Some(s) = &p.scratch {
            const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 4;
            let fd = s.fd.load(std::sync::atomic::Ordering::SeqCst);
            if fd >= 0
                && libc::syscall(
                    libc::SYS_move_mount,
                    fd,
                    c"".as_ptr(),
                    libc::AT_FDCWD,
                    p.workdir.as_ptr(),
                    MOVE_MOUNT_F_EMPTY_PATH,
                ) != 0
            {
                fail(p, Stage::Scratch);
            }
        }
        if !p.pid_namespace {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
        }
        // vfork-like: no copy of the page tables, and init sleeps until the
        // program's process has executed the program (or failed to).
        let child = libc::clone(
            program_entry,
            stack_top(&p.stack),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (p as *const Plan).cast_mut().cast(),
        );
        if child < 0 {
            fail(p, Stage::Fork);
        }
        // The program holds its own copies of its streams now. Init keeps
        // only its report pipe: a copy of the program's stdin left here
        // would keep a judge that writes to it from ever seeing the reader
        // gone (EPIPE), and a copy of its stdout would keep the judge from
        // seeing the end of its output when the program closes it.
        close_all_but(p.report);
        loop {
            let mut status = 0;
            let mut usage: libc::rusage = std::mem::zeroed();
            let r = libc::wait4(-1, &mut status, libc::__WALL, &mut usage);
            if r == child {
                send(
                    p.report,
                    Message {
                        kind: MSG_EXITED,
                        a: status,
                        b: usage.ru_maxrss,
                        c: 0,
                    },
                );
                break;
            }
            if r < 0 && errno() != libc::EINTR {
                break;
            }
        }
        if !p.pid_namespace {
            kill_descendants();
        }
        libc::_exit(0)
    }
}

/// Closes every descriptor from 3 up except `keep`.
fn close_all_but(keep: RawFd) {
    // SAFETY: close_range on ranges of this process's own descriptors.
    unsafe {
        if keep > 3 {
            libc::syscall(libc::SYS_close_range, 3u32, (keep - 1) as u32, 0u32);
        }
        libc::syscall(
            libc::SYS_close_range,
            (keep.max(2) + 1) as u32,
            u32::MAX,
            0u32,
        );
    }
}

/// Without a pid namespace: kills and reaps everything that was reparented
/// to us (we are a subreaper), until nothing is left.
fn kill_descendants() {
    let mut path = [0u8; 64];
    let mut buf = [0u8; 4096];
    // SAFETY (whole function): raw system calls on local buffers.
    unsafe {
        let me = libc::getpid();
        let prefix = b"/proc/self/task/";
        path[..prefix.len()].copy_from_slice(prefix);
        let n = prefix.len() + write_decimal(&mut path[prefix.len()..], me as u64);
        let suffix = b"/children\0";
        path[n..n + suffix.len()].copy_from_slice(suffix);
        for _ in 0..1000 {
            let fd = libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC);
            if fd < 0 {
                return;
            }
            let len = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
            libc::close(fd);
            if len <= 0 {
                return;
            }
            let mut pid: i64 = 0;
            for &c in &buf[..len as usize] {
                if c.is_ascii_digit() {
                    pid = pid * 10 + (c - b'0') as i64;
                } else if pid > 0 {
                    libc::kill(pid as libc::pid_t, libc::SIGKILL);
                    pid = 0;
                }
            }
            if pid > 0 {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
            while libc::waitpid(-1, std::ptr::null_mut(), libc::__WALL | libc::WNOHANG) > 0 {}
            libc::usleep(1000);
            while libc::waitpid(-1, std::ptr::null_mut(), libc::__WALL | libc::WNOHANG) > 0 {}
        }
    }
}

fn write_decimal(out: &mut [u8], mut v: u64) -> usize {
    let mut digits = [0u8; 20];
    let mut n = 0;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for i in 0..n {
        out[i] = digits[n - 1 - i];
    }
    n
}

extern "C" fn program_entry(plan: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `plan` is the `&Plan` init passed to clone; init is suspended
    // (CLONE_VFORK) while we use it.
    program(unsafe { &*(plan as *const Plan) })
}

/// The program's process: confine, then execute. Never returns.
fn program(p: &Plan) -> ! {
    // SAFETY (whole function): raw system calls on prepared memory.
    unsafe {
        if libc::dup2(p.stdin, 0) < 0 || libc::dup2(p.stdout, 1) < 0 || libc::dup2(p.stderr, 2) < 0
        {
            fail(p, Stage::Streams);
        }
        libc::setpgid(0, 0);
        // First in line for the OOM killer when the machine runs short:
        // otherwise it could pick `init` or the zygote, which carry the
        // judge's size, and the kernel would end the judge with them. A
        // vfork child has an OOM score of its own (this does not reach the
        // judge), and raising it needs no privilege; best effort.
        write_all(c"/proc/self/oom_score_adj", b"1000");
        // A lower priority needs no privilege; the run cannot undo it
        // (raising a priority takes root's privilege, dropped below).
        if super::spawn::nicer(p.niceness) != 0 {
            fail(p, Stage::Limits);
        }
        for l in &p.limits {
            let lim = libc::rlimit {
                rlim_cur: l.soft,
                rlim_max: l.hard,
            };
            if libc::setrlimit(l.resource, &lim) != 0 {
                fail(p, Stage::Limits);
            }
        }
        if libc::chdir(p.workdir.as_ptr()) != 0 {
            fail(p, Stage::WorkingFolder);
        }
        if let Some((uid, gid)) = p.ids {
            // Raw calls: the C library's wrappers would try to change the
            // ids of threads that do not exist in this process.
            if libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) != 0
                || libc::syscall(libc::SYS_setresgid, gid, gid, gid) != 0
                || libc::syscall(libc::SYS_setresuid, uid, uid, uid) != 0
            {
                fail(p, Stage::Identity);
            }
        }
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            fail(p, Stage::NoNewPrivileges);
        }
        if let Some(fd) = p.ruleset {
            if libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) != 0 {
                fail(p, Stage::Landlock);
            }
            libc::close(fd);
        }
        if let Some(filters) = p.seccomp
            && super::seccomp::install(filters).is_err()
        {
            fail(p, Stage::Seccomp);
        }
        // Nothing of the judge's is inherited but the three streams.
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
        // Everything in force: the files the command names (`named.rs`).
        if let Some(i) = super::named::first_unreadable(&p.reads) {
            fail_at(p, Stage::Read, i);
        }
        libc::execve(p.path.as_ptr(), p.argv.as_ptr(), p.envp.as_ptr());
        fail(p, Stage::Exec)
    }
}
