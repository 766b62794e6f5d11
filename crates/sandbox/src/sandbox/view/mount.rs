//! Mounting a planned view: a short-lived helper child makes a private
//! mount namespace with the planned steps, and the judge keeps a
//! descriptor of that namespace for runs to join.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use super::plan::Op;

/// Builds the view in a short-lived child and keeps its namespace; with
/// `userns`, the child first joins that user namespace (an ordinary
/// user's zygote's, where it has the privilege to mount), which then owns
/// the view.
pub(super) fn build(ops: &[Op], userns: Option<&OwnedFd>) -> io::Result<OwnedFd> {
    let tmpfs = c"tmpfs";
    let tmpfs_opts = c"mode=0755,size=1m";
    let userns = userns.map(|fd| fd.as_raw_fd());
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
        let code = build_in_child(ops, userns, tmpfs.as_ptr(), tmpfs_opts.as_ptr());
        let bytes = [code as u8, super::super::errno::errno() as u8];
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
        let why = io::Error::from_raw_os_error(bytes[1] as i32);
        Err(io::Error::other(format!(
            "mount step {} failed: {why}",
            bytes[0]
        )))
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

/// In the helper child: a private mount namespace with the planned mounts.
/// Returns 0, or the 1-based number of the step that failed.
fn build_in_child(
    ops: &[Op],
    userns: Option<RawFd>,
    tmpfs: *const libc::c_char,
    opts: *const libc::c_char,
) -> usize {
    // SAFETY (whole function): system calls on NUL-terminated strings
    // prepared before the fork.
    unsafe {
        if let Some(ns) = userns
            && libc::setns(ns, libc::CLONE_NEWUSER) != 0
        {
            return 1;
        }
        if libc::unshare(libc::CLONE_NEWNS) != 0 {
            return 1;
        }
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
                            userns.is_none()
                                || set_attr(target.as_ptr(), false, 0, MOUNT_ATTR_RDONLY)
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
