//! Mounting a planned view: a short-lived helper child makes a private
//! mount namespace with the planned steps, and the judge keeps a
//! descriptor of that namespace for runs to join.
//!
//! A root judge's helper shares the judge's memory and descriptor table
//! (`CLONE_VM | CLONE_VFORK | CLONE_FILES`, as a run's `init` does, see
//! `child.rs`): a fork would copy the judge's page tables only to tear them
//! down again, which costs more than all the mounts. It opens its new
//! namespace into the shared table, then takes a private table for the
//! descriptors the steps open at fixed numbers, so those never replace one
//! of the judge's. An ordinary user's helper must first join the zygote's
//! user namespace, which the kernel refuses to a process sharing memory:
//! that one is forked.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

use super::super::errno::errno;
use super::super::stack::{Stack, stack_top};
use super::plan::Op;

const TMPFS: &std::ffi::CStr = c"tmpfs";
const TMPFS_OPTS: &std::ffi::CStr = c"mode=0755,size=1m";

/// Builds the view in a short-lived child and keeps its namespace; with
/// `userns`, the child first joins that user namespace (an ordinary
/// user's zygote's, where it has the privilege to mount), which then owns
/// the view.
pub(super) fn build(ops: &[Op], userns: Option<&OwnedFd>) -> io::Result<OwnedFd> {
    match userns {
        None => build_sharing(ops),
        Some(ns) => build_forked(ops, ns.as_raw_fd()),
    }
}

/// What the sharing helper hands back, written before it exits.
struct Job<'a> {
    ops: &'a [Op],
    /// The new namespace's descriptor in the judge's table, or -1.
    ns: AtomicI32,
    /// 0, or the 1-based number of the step that failed.
    step: AtomicUsize,
    errno: AtomicI32,
}

/// A root judge's view, built by a child sharing the judge's memory.
fn build_sharing(ops: &[Op]) -> io::Result<OwnedFd> {
    let job = Job {
        ops,
        ns: AtomicI32::new(-1),
        step: AtomicUsize::new(255),
        errno: AtomicI32::new(0),
    };
    let stack = Stack::take();
    // SAFETY: the child runs `sharing_entry` on its own stack and only
    // makes system calls on `job`, which lives until it has exited:
    // `CLONE_VFORK` holds this thread until then.
    let pid = unsafe {
        libc::clone(
            sharing_entry,
            stack_top(&stack),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_FILES | libc::SIGCHLD,
            (&job as *const Job).cast_mut().cast(),
        )
    };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: reaping our own helper child, which has exited.
    unsafe {
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
    let ns = job.ns.load(Ordering::SeqCst);
    // SAFETY: the helper opened this descriptor in our table for us.
    let ns = (ns >= 0).then(|| unsafe { OwnedFd::from_raw_fd(ns) });
    match (job.step.load(Ordering::SeqCst), ns) {
        (0, Some(ns)) => Ok(ns),
        (step, _) => Err(step_failed(step, job.errno.load(Ordering::SeqCst))),
    }
}

/// The sharing helper: a new mount namespace, its descriptor left in the
/// judge's table, then the steps with a table of its own.
extern "C" fn sharing_entry(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `&Job` the judge keeps alive until we exit.
    let job = unsafe { &*(arg as *const Job) };
    // SAFETY: system calls on NUL-terminated constants.
    let entered = unsafe {
        libc::unshare(libc::CLONE_NEWNS) == 0 && {
            let ns = libc::open(
                c"/proc/thread-self/ns/mnt".as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            );
            job.ns.store(ns, Ordering::SeqCst);
            ns >= 0 && libc::unshare(libc::CLONE_FILES) == 0
        }
    };
    let step = if entered {
        mount_all(job.ops, false, TMPFS.as_ptr(), TMPFS_OPTS.as_ptr())
    } else {
        1
    };
    job.errno.store(errno(), Ordering::SeqCst);
    job.step.store(step, Ordering::SeqCst);
    0
}

fn step_failed(step: usize, errno: i32) -> io::Error {
    let why = io::Error::from_raw_os_error(errno);
    io::Error::other(format!("mount step {step} failed: {why}"))
}

/// An ordinary user's view, built by a forked child that joins `userns`.
fn build_forked(ops: &[Op], userns: RawFd) -> io::Result<OwnedFd> {
    let tmpfs = TMPFS.as_ptr();
    let tmpfs_opts = TMPFS_OPTS.as_ptr();
    let mut pipe = [0; 2];
    // SAFETY: a valid array of two descriptors.
    if unsafe { libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned these descriptors; we own them.
    let (rd, wr) = unsafe { (OwnedFd::from_raw_fd(pipe[0]), OwnedFd::from_raw_fd(pipe[1])) };
    // SAFETY: a fork-like clone; the child below only makes system calls
    // on memory prepared before the clone, then waits to be killed.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            libc::SIGCHLD as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        // SAFETY: system calls on a descriptor of ours.
        let code = if unsafe {
            libc::setns(userns, libc::CLONE_NEWUSER) == 0 && libc::unshare(libc::CLONE_NEWNS) == 0
        } {
            mount_all(ops, true, tmpfs, tmpfs_opts)
        } else {
            1
        };
        let bytes = [code as u8, errno() as u8];
        // SAFETY: writing two bytes to our pipe, then waiting to be killed.
        unsafe {
            libc::write(wr.as_raw_fd(), bytes.as_ptr().cast(), 2);
            loop {
                libc::pause();
            }
        }
    }
    drop(wr);
    let pid = pid as libc::pid_t;
    let mut bytes = [255u8, 0];
    // SAFETY: reading two bytes into a local buffer.
    let n = unsafe { libc::read(rd.as_raw_fd(), bytes.as_mut_ptr().cast(), 2) };
    let ns = if n == 2 && bytes[0] == 0 {
        fs::File::open(format!("/proc/{pid}/ns/mnt")).map(OwnedFd::from)
    } else {
        Err(step_failed(bytes[0] as usize, bytes[1] as i32))
    };
    // SAFETY: ending and reaping our own helper child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
    ns
}

/// `mount_setattr(2)` on `path`: sets and clears mount attributes of that
/// mount alone (or, `recursive`, of every mount beneath it too), leaving
/// the others (`nodev`, `noexec`, atime) as they are: in a user namespace
/// those may be locked, and a `mount` remount would have to repeat them.
///
/// # Safety
/// `path` must be NUL-terminated.
unsafe fn set_attr(path: *const libc::c_char, recursive: bool, set: u64, clear: u64) -> bool {
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    const AT_RECURSIVE: libc::c_uint = 0x8000;
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: a system call on a NUL-terminated path and a local struct.
    unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path,
            if recursive { AT_RECURSIVE } else { 0 },
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        ) == 0
    }
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;

/// In the helper child, already in its new mount namespace: the planned
/// mounts (`in_userns`: in an ordinary user's user namespace). Returns 0, or
/// the 1-based number of the step that failed.
fn mount_all(
    ops: &[Op],
    in_userns: bool,
    tmpfs: *const libc::c_char,
    opts: *const libc::c_char,
) -> usize {
    // SAFETY (whole function): system calls on NUL-terminated strings
    // prepared before the clone.
    unsafe {
        if libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) != 0
        {
            return 2;
        }
        for (i, op) in ops.iter().enumerate() {
            let step = i + 3;
            let ok = match op {
                Op::Open { path, fd } => {
                    let f = libc::open(path.as_ptr(), libc::O_PATH | libc::O_DIRECTORY);
                    f >= 0 && libc::dup2(f, *fd) == *fd
                }
                Op::Tmpfs(target) => {
                    libc::mount(
                        tmpfs,
                        target.as_ptr(),
                        tmpfs,
                        libc::MS_NOSUID | libc::MS_NODEV,
                        opts.cast(),
                    ) == 0
                }
                Op::Mkdir(path) => {
                    libc::mkdir(path.as_ptr(), 0o755) == 0
                        || *libc::__errno_location() == libc::EEXIST
                }
                Op::Bind {
                    source,
                    target,
                    writable,
                } => {
                    let bound = libc::mount(
                        source.as_ptr(),
                        target.as_ptr(),
                        std::ptr::null(),
                        libc::MS_BIND | libc::MS_REC,
                        std::ptr::null(),
                    ) == 0;
                    // A bind copies its source's attributes: in an
                    // ordinary user's view every source is read-only by
                    // now, so a writable one is made writable again.
                    bound
                        && if *writable {
                            !in_userns || set_attr(target.as_ptr(), false, 0, MOUNT_ATTR_RDONLY)
                        } else {
                            set_attr(
                                target.as_ptr(),
                                false,
                                MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
                                0,
                            )
                        }
                }
                Op::ReadOnlyEverywhere => {
                    set_attr(c"/".as_ptr(), true, MOUNT_ATTR_RDONLY, 0) && {
                        // /proc stays as it was (a run lowers its own OOM
                        // score there); best effort, its files are not the
                        // judge's.
                        if !set_attr(c"/proc".as_ptr(), true, 0, MOUNT_ATTR_RDONLY) {
                            set_attr(c"/proc".as_ptr(), false, 0, MOUNT_ATTR_RDONLY);
                        }
                        true
                    }
                }
                Op::Seal(target) => set_attr(target.as_ptr(), false, MOUNT_ATTR_RDONLY, 0),
            };
            if !ok {
                return step.min(254);
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::super::plan::{Root, plan};
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::os::unix::process::CommandExt;

    /// Whether this process may build a root view; under `CI=true` it must.
    fn root() -> bool {
        // SAFETY: reading our own effective uid.
        let root = unsafe { libc::geteuid() } == 0;
        assert!(
            root || std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test cannot run: it needs root"
        );
        root
    }

    /// A root judge's view, built by a helper sharing the judge's memory and
    /// descriptors: a namespace of its own, showing only the chosen entries
    /// of a closed folder, and none of the descriptors the helper opened at
    /// fixed numbers lands in (or replaces one of) the judge's table.
    #[test]
    fn a_root_view_is_built_without_touching_the_judges_descriptors() {
        if !root() {
            return;
        }
        let t = tempfile::tempdir().expect("tempdir");
        let home = t.path().join("home");
        let tool = home.join("tools/python");
        let cache = home.join("cache");
        fs::create_dir_all(&tool).expect("mkdir");
        fs::create_dir_all(cache.join("bin")).expect("mkdir");
        fs::create_dir_all(cache.join("answers")).expect("mkdir");
        fs::set_permissions(&home, fs::Permissions::from_mode(0o700)).expect("chmod");
        let root = Root {
            path: cache.clone(),
            expose: Some(vec![("bin".into(), false)]),
        };
        let ops = plan(&[root], std::slice::from_ref(&tool), None, &[]).expect("plan");
        // One of the judge's own files sits where the helper keeps its
        // first bind source.
        let mine = fs::File::open("/dev/null").expect("open /dev/null");
        // SAFETY: duplicating our own descriptor to a free number.
        let at = unsafe { libc::fcntl(mine.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 700) };
        assert!(at >= 700, "dup: {}", io::Error::last_os_error());
        // SAFETY: we own the duplicate.
        let mine = unsafe { OwnedFd::from_raw_fd(at) };
        let before = rustix::fs::fstat(&mine).expect("fstat");

        let view = build(&ops, None).expect("build the view");

        let after = rustix::fs::fstat(&mine).expect("our descriptor is still open");
        assert_eq!((after.st_dev, after.st_ino), (before.st_dev, before.st_ino));
        let own = fs::metadata("/proc/self/ns/mnt").expect("own namespace");
        let st = rustix::fs::fstat(&view).expect("fstat view");
        assert_ne!(st.st_ino, own.ino(), "the view is a namespace of its own");
        for n in at + 1..at + 8 {
            // SAFETY: asking about a descriptor number.
            let open = unsafe { libc::fcntl(n, libc::F_GETFD) } >= 0;
            assert!(!open, "descriptor {n} left in the judge's table");
        }
        let list = |dir: &std::path::Path| {
            let ns = view.as_raw_fd();
            let mut cmd = std::process::Command::new("ls");
            cmd.arg("-A").arg(dir);
            // SAFETY: one system call between fork and exec.
            unsafe {
                cmd.pre_exec(move || {
                    if libc::setns(ns, libc::CLONE_NEWNS) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            let out = cmd.output().expect("ls in the view");
            assert!(out.status.success(), "{out:?}");
            String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(list(&home), ["cache", "tools"]);
        assert_eq!(list(&cache), ["bin"]);
        // Outside the view, nothing changed.
        let mut here: Vec<_> = fs::read_dir(&cache)
            .expect("read cache")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        here.sort();
        assert_eq!(here, ["answers", "bin"]);
    }

    /// A step that fails is named, and no namespace is returned.
    #[test]
    fn a_failed_step_is_reported_by_its_number() {
        if !root() {
            return;
        }
        let t = tempfile::tempdir().expect("tempdir");
        let gone =
            std::ffi::CString::new(t.path().join("gone").into_os_string().into_encoded_bytes())
                .expect("path");
        let err = build(&[Op::Tmpfs(gone)], None).expect_err("a tmpfs over nothing");
        assert!(err.to_string().starts_with("mount step 3 failed"), "{err}");
    }
}
