//! Starting a program the way `posix_spawn` does — a child that shares the
//! judge's memory until it calls `exec` — but with our own setup steps.
//!
//! Why not `std::process::Command` with `pre_exec`: a hook forces a real
//! `fork`, which copies the judge's page tables. For a judge holding a few
//! hundred megabytes of results that is tens of milliseconds per run, and
//! even a small judge pays about half a millisecond more than the run of a
//! trivial program costs. `clone(CLONE_VM | CLONE_VFORK)` costs the same
//! whatever the judge's size.
//!
//! The price is discipline: the child runs on a borrowed stack, in the
//! judge's memory, while the parent waits. It may only make system calls on
//! data prepared beforehand — no allocation, no locks, no Rust panics. Every
//! step is therefore a plain value ([`Step`]) built by the parent.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

use super::stack::{Stack, stack_top};

/// One thing the child does before `exec`, in order.
#[derive(Debug, Clone)]
pub enum Step {
    /// A new process group led by the child, so the whole run can be killed.
    NewProcessGroup,
    /// Die with the judge's thread that started us.
    DieWithParent,
    /// `dup2(from, to)`.
    Dup2(RawFd, RawFd),
    /// `setrlimit(resource, soft, hard)`.
    Limit(libc::__rlimit_resource_t, u64, u64),
    /// `chdir(path)`.
    Chdir(CString),
    /// `prctl(PR_SET_NO_NEW_PRIVS)`: required before an unprivileged seccomp
    /// filter, and keeps set-uid programs from regaining privileges.
    NoNewPrivs,
    /// Drop to this group and user (root judges only).
    SetIds { uid: libc::uid_t, gid: libc::gid_t },
    /// A raw system call with up to four arguments, for mechanisms built by
    /// the parent (e.g. installing a prepared seccomp program or a Landlock
    /// ruleset). Arguments must point to memory that outlives the spawn.
    Syscall(libc::c_long, [libc::c_long; 4]),
    /// Adds this much to the scheduling niceness (see [`nicer`]).
    Nicer(i32),
}

/// What to run and how to set it up.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The program's path (already resolved: no PATH lookup in the child).
    pub program: CString,
    pub argv: Vec<CString>,
    pub envp: Vec<CString>,
    pub steps: Vec<Step>,
    /// Extra `clone` flags (namespaces).
    pub clone_flags: libc::c_int,
}

/// The kernel refused to execute the program itself (every step before
/// succeeded): the program's fault, not the judge's. Carried inside the
/// `io::Error` that [`spawn`] returns.
#[derive(Debug)]
pub struct ExecFailed(String);

impl std::fmt::Display for ExecFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExecFailed {}

/// Whether `e` (from [`spawn`]) is the kernel refusing the program.
pub fn exec_failed(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<ExecFailed>())
}

/// Shared between the parent and the child, which runs in the same memory.
struct Shared<'a> {
    plan: &'a Plan,
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
    /// The step that failed (1-based; `steps.len() + 1` is exec), or 0.
    failed_step: AtomicUsize,
    errno: AtomicI32,
}

/// Starts the program; returns its pid once it has called `exec`.
pub fn spawn(plan: &Plan) -> io::Result<libc::pid_t> {
    let mut argv: Vec<*const libc::c_char> = plan.argv.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    let mut envp: Vec<*const libc::c_char> = plan.envp.iter().map(|a| a.as_ptr()).collect();
    envp.push(std::ptr::null());
    let shared = Shared {
        plan,
        argv,
        envp,
        failed_step: AtomicUsize::new(0),
        errno: AtomicI32::new(0),
    };
    // The stacks sandboxed runs' children use, reused per judge thread.
    let stack = Stack::take();
    let flags = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD | plan.clone_flags;
    let blocked = block_all_signals()?;
    // SAFETY: `child` only makes system calls on data in `shared`, which
    // lives until clone returns (CLONE_VFORK: after the child's exec or exit).
    let pid = unsafe {
        libc::clone(
            child,
            stack_top(&stack),
            flags,
            &shared as *const Shared as *mut libc::c_void,
        )
    };
    let clone_error = io::Error::last_os_error();
    restore_signals(&blocked);
    drop(stack);
    if pid < 0 {
        return Err(clone_error);
    }
    let step = shared.failed_step.load(Ordering::SeqCst);
    if step != 0 {
        reap(pid);
        let errno = io::Error::from_raw_os_error(shared.errno.load(Ordering::SeqCst));
        return Err(match plan.steps.get(step - 1) {
            Some(s) => io::Error::new(errno.kind(), format!("{s:?}: {errno}")),
            None => io::Error::new(
                errno.kind(),
                ExecFailed(format!("exec {}: {errno}", plan.program.to_string_lossy())),
            ),
        });
    }
    Ok(pid)
}

fn reap(pid: libc::pid_t) {
    let mut status = 0;
    // SAFETY: waiting for our own child that has already exited.
    unsafe {
        libc::waitpid(pid, &mut status, 0);
    }
}

/// Blocks every signal in the calling thread, so no handler of the judge
/// runs in the child while it shares the judge's memory.
fn block_all_signals() -> io::Result<libc::sigset_t> {
    // SAFETY: sigset_t values are plain data initialised by sigfillset.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        let r = libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        if r != 0 {
            return Err(io::Error::from_raw_os_error(r));
        }
        Ok(old)
    }
}

fn restore_signals(old: &libc::sigset_t) {
    // SAFETY: restoring a mask obtained from pthread_sigmask.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, old, std::ptr::null_mut());
    }
}

/// Runs in the child, on the borrowed stack, in the judge's memory.
extern "C" fn child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `Shared` the parent keeps alive while we run.
    let shared = unsafe { &*(arg as *const Shared) };
    // SAFETY: only system calls follow, on prepared data.
    unsafe {
        reset_signal_handlers();
        for (i, step) in shared.plan.steps.iter().enumerate() {
            if run_step(step) != 0 {
                fail(shared, i + 1);
            }
        }
        let empty: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        libc::execve(
            shared.plan.program.as_ptr(),
            shared.argv.as_ptr(),
            shared.envp.as_ptr(),
        );
        fail(shared, shared.plan.steps.len() + 1)
    }
}

/// Handlers installed by the judge must not run in the program, and the
/// program starts with SIGPIPE's default action, as from a shell: the judge
/// ignores SIGPIPE (it writes to pipes of programs that may have ended),
/// and an ignored signal would otherwise stay ignored across `exec`.
unsafe fn reset_signal_handlers() {
    for sig in 1..65 {
        if sig == libc::SIGKILL || sig == libc::SIGSTOP {
            continue;
        }
        // SAFETY: querying and resetting dispositions of valid signals.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction != libc::SIG_DFL
                && (old.sa_sigaction != libc::SIG_IGN || sig == libc::SIGPIPE)
            {
                let mut dfl: libc::sigaction = std::mem::zeroed();
                dfl.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(sig, &dfl, std::ptr::null_mut());
            }
        }
    }
}

unsafe fn run_step(step: &Step) -> libc::c_int {
    // SAFETY: each arm is one system call with prepared arguments.
    unsafe {
        match step {
            Step::NewProcessGroup => libc::setpgid(0, 0),
            Step::DieWithParent => libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0),
            Step::Dup2(from, to) => {
                if from == to {
                    // dup2 to itself keeps close-on-exec; clear it instead.
                    libc::fcntl(*from, libc::F_SETFD, 0)
                } else {
                    if libc::dup2(*from, *to) < 0 { -1 } else { 0 }
                }
            }
            Step::Limit(res, soft, hard) => {
                let lim = libc::rlimit {
                    rlim_cur: *soft,
                    rlim_max: *hard,
                };
                libc::setrlimit(*res, &lim)
            }
            Step::Chdir(path) => libc::chdir(path.as_ptr()),
            Step::Nicer(by) => nicer(*by),
            Step::NoNewPrivs => libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
            Step::SetIds { uid, gid } => {
                let groups = [*gid];
                if libc::setgroups(1, groups.as_ptr()) != 0
                    || libc::setresgid(*gid, *gid, *gid) != 0
                {
                    -1
                } else {
                    libc::setresuid(*uid, *uid, *uid)
                }
            }
            Step::Syscall(nr, a) => {
                if libc::syscall(*nr, a[0], a[1], a[2], a[3]) < 0 {
                    -1
                } else {
                    0
                }
            }
        }
    }
}

unsafe fn fail(shared: &Shared, step: usize) -> ! {
    // SAFETY: errno of this (shared) thread, read right after the failure.
    let errno = unsafe { *libc::__errno_location() };
    shared.errno.store(errno, Ordering::SeqCst);
    shared.failed_step.store(step, Ordering::SeqCst);
    // SAFETY: leave without running any of the judge's exit code.
    unsafe { libc::_exit(127) }
}

/// A C string from text that must not hold NUL bytes.
pub fn c_string(s: impl Into<Vec<u8>>) -> io::Result<CString> {
    CString::new(s)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "argument holds a NUL byte"))
}

/// Text for messages from a C string.
pub fn lossy(s: &CStr) -> String {
    s.to_string_lossy().into_owned()
}

/// Adds `by` to the calling thread's scheduling niceness, at most 19 (what
/// `nice -n` does), with raw system calls only: it runs between clone and
/// exec. Lowering one's own priority needs no privilege; 0 changes nothing.
/// Returns 0, or -1 when the kernel refused.
pub fn nicer(by: i32) -> libc::c_int {
    if by <= 0 {
        return 0;
    }
    // SAFETY: two system calls on the calling thread, no memory passed.
    unsafe {
        // The raw call answers 20 - niceness (1 to 40), never an error for
        // the calling thread itself.
        let now = 20 - libc::syscall(libc::SYS_getpriority, libc::PRIO_PROCESS, 0) as i32;
        let to = now.saturating_add(by).min(19);
        if libc::syscall(libc::SYS_setpriority, libc::PRIO_PROCESS, 0, to) == 0 {
            0
        } else {
            -1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(pid: libc::pid_t) -> i32 {
        let mut status = 0;
        // SAFETY: our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        status
    }

    fn plan(program: &str, args: &[&str], steps: Vec<Step>) -> Plan {
        Plan {
            program: c_string(program).expect("c"),
            argv: std::iter::once(program)
                .chain(args.iter().copied())
                .map(|a| c_string(a).expect("c"))
                .collect(),
            envp: vec![c_string("PATH=/usr/bin:/bin").expect("c")],
            steps,
            clone_flags: 0,
        }
    }

    #[test]
    fn runs_a_program_and_reports_its_status() {
        let pid = spawn(&plan("/bin/sh", &["-c", "exit 7"], vec![])).expect("spawn");
        let status = wait(pid);
        assert!(libc::WIFEXITED(status));
        assert_eq!(libc::WEXITSTATUS(status), 7);
    }

    #[test]
    fn a_missing_program_is_an_error_naming_exec() {
        let e = spawn(&plan("/no/such/program", &[], vec![])).expect_err("must fail");
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(exec_failed(&e));
        assert!(e.to_string().contains("exec /no/such/program"), "{e}");
    }

    #[test]
    fn steps_apply_before_exec() {
        let dir = tempfile::tempdir().expect("tmp");
        let out = std::fs::File::create(dir.path().join("out")).expect("create");
        use std::os::fd::AsRawFd;
        let steps = vec![
            Step::NewProcessGroup,
            Step::Limit(libc::RLIMIT_NOFILE, 33, 33),
            Step::Chdir(c_string(dir.path().as_os_str().as_encoded_bytes()).expect("c")),
            Step::Dup2(out.as_raw_fd(), 1),
        ];
        let pid = spawn(&plan(
            "/bin/sh",
            &["-c", "ulimit -n; pwd; ps -o pgid= -p $$"],
            steps,
        ))
        .expect("spawn");
        wait(pid);
        let text = std::fs::read_to_string(dir.path().join("out")).expect("read");
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        assert_eq!(lines[0], "33");
        assert_eq!(
            std::path::Path::new(lines[1]).canonicalize().ok(),
            dir.path().canonicalize().ok()
        );
        assert_eq!(
            lines.get(2).copied(),
            Some(pid.to_string().as_str()),
            "own process group"
        );
    }

    #[test]
    fn a_failing_step_is_reported() {
        // Raising a hard limit above the current hard limit fails for non-root
        // and for root alike when above the kernel's maximum (nr_open).
        let steps = vec![Step::Limit(libc::RLIMIT_NOFILE, u64::MAX - 1, u64::MAX - 1)];
        let e = spawn(&plan("/bin/true", &[], steps)).expect_err("must fail");
        assert!(e.to_string().starts_with("Limit("), "{e}");
        assert!(
            !exec_failed(&e),
            "a failed step is the judge's, not the program's"
        );
    }
}
