//! What the kernel and our privileges allow, found out once per process.
//!
//! The sandbox picks the strongest mechanisms available at run time rather
//! than at build time: the same binary runs as root in CI, as an ordinary
//! user on a teacher's laptop, and on kernels without Landlock.

use std::sync::OnceLock;

/// The mechanisms this process can use for its runs.
#[derive(Debug, Clone)]
pub struct Abilities {
    /// The Landlock ABI version, if Landlock is enabled.
    pub landlock: Option<u32>,
    /// Whether seccomp filters can be installed.
    pub seccomp: bool,
    /// Effective uid 0 with the capabilities that come with it: runs can
    /// switch to an unprivileged uid and use cgroups and mount namespaces.
    pub root: bool,
    /// Whether an unprivileged user namespace (with a pid namespace in it)
    /// can be created; irrelevant as root.
    pub user_namespace: bool,
    /// Cgroup v1 folders this process may create children in (root only).
    pub cgroups: Option<super::cgroup::Hierarchies>,
}

/// The abilities of this process, probed on first use.
pub fn abilities() -> &'static Abilities {
    static ABILITIES: OnceLock<Abilities> = OnceLock::new();
    ABILITIES.get_or_init(|| {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0 && has_sys_admin() && run_ids_mapped();
        Abilities {
            landlock: landlock_abi(),
            seccomp: seccomp_available(),
            root,
            user_namespace: !root && user_namespace_works(),
            cgroups: if root {
                super::cgroup::Hierarchies::find()
            } else {
                None
            },
        }
    })
}

/// The Landlock ABI version, asked of the kernel (`LANDLOCK_CREATE_RULESET_VERSION`).
fn landlock_abi() -> Option<u32> {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_ulong = 1;
    // SAFETY: with a null attribute, size 0 and the VERSION flag the call
    // only returns a number.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    (v > 0).then_some(v as u32)
}

fn seccomp_available() -> bool {
    // SAFETY: PR_GET_SECCOMP takes no pointer arguments.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP) >= 0 }
}

/// Whether CAP_SYS_ADMIN is in our effective set (root in a container may
/// lack it, and then root's extra mechanisms are unavailable).
fn has_sys_admin() -> bool {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .is_some_and(|caps| caps & (1 << CAP_SYS_ADMIN) != 0)
}

/// Whether the run uids exist in our user namespace (not so for root in a
/// rootless container, which then works as an ordinary user).
fn run_ids_mapped() -> bool {
    let first = u64::from(super::uids::RUN_ID_BASE);
    let last = first + u64::from(super::uids::RUN_IDS);
    let Ok(map) = std::fs::read_to_string("/proc/self/uid_map") else {
        return false;
    };
    map.lines().any(|l| {
        let f: Vec<u64> = l
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        f.len() == 3 && f[0] <= first && last < f[0] + f[2]
    })
}

/// Tries to create a user and pid namespace in a throwaway child.
fn user_namespace_works() -> bool {
    let flags = (libc::CLONE_NEWUSER | libc::CLONE_NEWPID) as libc::c_ulong
        | libc::SIGCHLD as libc::c_ulong;
    // SAFETY: a fork-like clone; the child only calls _exit.
    let pid = unsafe { libc::syscall(libc::SYS_clone, flags, 0usize, 0usize, 0usize, 0usize) };
    if pid == 0 {
        // SAFETY: leaving the child at once.
        unsafe { libc::_exit(0) };
    }
    if pid < 0 {
        return false;
    }
    let mut status = 0;
    // SAFETY: reaping our own child.
    unsafe { libc::waitpid(pid as libc::pid_t, &mut status, 0) };
    libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

/// The capability number of CAP_SYS_ADMIN (linux/capability.h).
const CAP_SYS_ADMIN: u32 = 21;
