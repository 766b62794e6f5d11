//! The seccomp filters every sandboxed program runs under.
//!
//! A deny list, not an allow list: compilers, the JVM and CPython use a wide
//! and changing set of ordinary system calls, and an allow list that misses
//! one turns a correct submission into a mysterious crash. What is denied is
//! what a judged program never needs and an attacker wants: sockets (all
//! networking, the loopback interface included, without the cost of a
//! network namespace), tracing and reading other processes, new namespaces
//! and mounts, io_uring (whose operations bypass seccomp), kernel keyrings,
//! eBPF, and IPC objects that would outlive the run. Denied calls fail with
//! `EPERM`, so a program that merely probes sees an ordinary error.
//!
//! The filters are compiled once per process by `seccompiler`; the child
//! only hands the ready program to the kernel.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The compiled filters, in the order they are installed.
pub struct Filters {
    pub programs: Vec<BpfProgram>,
}

/// The filters, compiled on first use; `None` if they cannot be built for
/// this architecture.
pub fn filters() -> Option<&'static Filters> {
    static FILTERS: OnceLock<Option<Filters>> = OnceLock::new();
    FILTERS.get_or_init(build).as_ref()
}

fn arch() -> Option<TargetArch> {
    std::env::consts::ARCH.try_into().ok()
}

/// System calls that fail with `EPERM` whatever their arguments.
fn denied() -> Vec<libc::c_long> {
    let mut v = vec![
        // Networking: no socket of any family. `socketpair` stays (a
        // private channel between the program's own processes).
        libc::SYS_socket,
        // io_uring performs socket, open and other operations out of reach
        // of this filter.
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        // Other processes: tracing, reading or writing their memory, stealing
        // their descriptors.
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_kcmp,
        libc::SYS_pidfd_getfd,
        // Kernel attack surface a judged program has no use for.
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_fanotify_init,
        // Namespaces and mounts: the view of the system stays the one we set.
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_mount_setattr,
        // Opening files by handle skips path-based checks.
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        // IPC objects that outlive the process that made them.
        libc::SYS_shmget,
        libc::SYS_msgget,
        libc::SYS_semget,
        libc::SYS_mq_open,
        // Anonymous files grow outside the working folder's size cap.
        libc::SYS_memfd_create,
        libc::SYS_memfd_secret,
        // Machine administration (privileged anyway; denied for defence in depth).
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
        libc::SYS_syslog,
        libc::SYS_quotactl,
        libc::SYS_vhangup,
    ];
    #[cfg(target_arch = "x86_64")]
    v.extend([libc::SYS_iopl, libc::SYS_ioperm]);
    v
}

/// `clone` flags that would create a namespace.
const NAMESPACE_FLAGS: [libc::c_int; 7] = [
    libc::CLONE_NEWNS,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWCGROUP,
];

fn build() -> Option<Filters> {
    let arch = arch()?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        denied().into_iter().map(|nr| (nr, Vec::new())).collect();
    // `clone` stays (threads, fork), except with a namespace flag.
    let clone_rules = NAMESPACE_FLAGS
        .iter()
        .map(|&flag| {
            let flag = flag as u64;
            let cond = SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )
            .ok()?;
            SeccompRule::new(vec![cond]).ok()
        })
        .collect::<Option<Vec<_>>>()?;
    rules.insert(libc::SYS_clone, clone_rules);
    let deny = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .ok()?;
    // `clone3` passes its flags in memory, out of a filter's sight: answer
    // ENOSYS so that the C library falls back to `clone`, which is filtered.
    let clone3 = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )
    .ok()?;
    Some(Filters {
        programs: vec![deny.try_into().ok()?, clone3.try_into().ok()?],
    })
}

/// Installs `filters` on the calling thread. Runs between fork and exec:
/// only system calls, no allocation. `no_new_privs` must already be set.
pub fn install(filters: &Filters) -> Result<(), i32> {
    for program in &filters.programs {
        let prog = libc::sock_fprog {
            len: program.len() as u16,
            filter: program.as_ptr() as *mut libc::sock_filter,
        };
        // SAFETY: `prog` points to a valid BPF program that outlives the
        // call; the kernel copies it.
        let r = unsafe {
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                0usize,
                &prog as *const libc::sock_fprog,
            )
        };
        if r != 0 {
            return Err(super::child::errno());
        }
    }
    Ok(())
}
