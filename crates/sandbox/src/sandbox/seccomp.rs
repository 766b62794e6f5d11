//! The seccomp filters every sandboxed program runs under.
//!
//! A deny list, not an allow list: compilers, the JVM and CPython use a wide
//! and changing set of ordinary system calls, and an allow list that misses
//! one turns a correct submission into a mysterious crash. What is denied is
//! what a judged program never needs and an attacker wants: sockets (all
//! networking, the loopback interface included, without the cost of a
//! network namespace; socket pairs, whose buffers are memory no rlimit
//! counts, for every runtime but the JVM), tracing and reading other processes, new namespaces
//! and mounts, io_uring (whose operations bypass seccomp), kernel keyrings,
//! eBPF, and IPC objects that would outlive the run. Denied calls fail with
//! `ENOSYS`, as if the kernel lacked them: a program that merely probes sees
//! an ordinary error, and the C library falls back from `clone3` (whose
//! flags a filter cannot see) to `clone` (whose flags it can).
//!
//! One filter, not several: the kernel compiles each filter anew for every
//! run, and that compilation is a visible part of a trivial run's cost.
//!
//! The filter is a balanced tree over the sorted syscall numbers, built once
//! per process; the child only hands the ready program to the kernel. Why
//! not a filter library: the ones at hand (`seccompiler`) emit a linear
//! chain of comparisons, and when a filter is attached the kernel runs it
//! for every one of the ~450 syscall numbers to precompute which are always
//! allowed. With a chain of 60 comparisons that precomputation alone cost
//! about 0.2 ms per run, more than everything else the sandbox does; with a
//! tree each syscall number takes about seven comparisons.

use std::sync::OnceLock;

/// The compiled filter.
pub struct Filters {
    pub program: Vec<libc::sock_filter>,
}

/// The filter, compiled on first use; `None` on an architecture it does not
/// know. With `socket_pairs`, `socketpair` is allowed (see [`denied`]).
pub fn filters(socket_pairs: bool) -> Option<&'static Filters> {
    static WITH: OnceLock<Option<Filters>> = OnceLock::new();
    static WITHOUT: OnceLock<Option<Filters>> = OnceLock::new();
    let cell = if socket_pairs { &WITH } else { &WITHOUT };
    cell.get_or_init(|| build(socket_pairs)).as_ref()
}

/// System calls that fail with `ENOSYS` whatever their arguments.
///
/// `socketpair` is denied unless `socket_pairs`: a native program or an
/// interpreter needs no socket at all (its pipes are pipes, as are an
/// interactor's), and the buffers of socket pairs are kernel memory that,
/// without a memory group, nothing charges to the run (hundreds of MiB in
/// a few processes). The JVM, though, opens one at startup
/// (`FileDispatcherImpl`'s descriptor for closing channels) and fails
/// without it; the runner allows it to runs without an address-space cap,
/// the runtimes that reserve large virtual ranges (see `process::run`).
fn denied(socket_pairs: bool) -> Vec<libc::c_long> {
    let mut v = vec![
        // Networking: no socket of any family.
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
        libc::SYS_quotactl_fd,
        libc::SYS_vhangup,
        // The machine's mounts, which `/proc/self/mountinfo` (out of the
        // run's Landlock domain) would otherwise be the only way to list.
        SYS_STATMOUNT,
        SYS_LISTMOUNT,
        // Its flags live in memory out of the filter's sight; `clone` is
        // filtered instead.
        libc::SYS_clone3,
    ];
    // Port I/O, segment descriptors (a long record of kernel bugs) and
    // a.out libraries: nothing a judged program or its runtime needs.
    #[cfg(target_arch = "x86_64")]
    v.extend([
        libc::SYS_iopl,
        libc::SYS_ioperm,
        libc::SYS_modify_ldt,
        libc::SYS_uselib,
    ]);
    if !socket_pairs {
        v.push(libc::SYS_socketpair);
    }
    v
}

/// `statmount` and `listmount` (Linux 6.8), the same number on every
/// architecture; the `libc` crate does not name them yet.
const SYS_STATMOUNT: libc::c_long = 457;
const SYS_LISTMOUNT: libc::c_long = 458;

/// On x86_64, system calls of the x32 ABI arrive with the same audit
/// architecture as 64-bit ones and this bit set in their number: `socket`
/// is `41 | X32_SYSCALL_BIT`. A filter that compared numbers alone would let
/// every denied call through that door on a kernel built with x32 support.
/// No number at or above it is a 64-bit system call, on any architecture.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// `clone` flags that would create a namespace.
const NAMESPACE_FLAGS: libc::c_int = libc::CLONE_NEWNS
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

const RET_ALLOW: u32 = 0x7fff_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;
const RET_ENOSYS: u32 = 0x0005_0000 | libc::ENOSYS as u32;

// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0_LOW: u32 = 16;

fn stmt(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u32, k: u32, jt: usize, jf: usize) -> Option<libc::sock_filter> {
    Some(libc::sock_filter {
        code: code as u16,
        jt: u8::try_from(jt).ok()?,
        jf: u8::try_from(jf).ok()?,
        k,
    })
}

const LD_W_ABS: u32 = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
const JEQ_K: u32 = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
const JGE_K: u32 = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
const JSET_K: u32 = libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K;
const RET_K: u32 = libc::BPF_RET | libc::BPF_K;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn build(socket_pairs: bool) -> Option<Filters> {
    let mut numbers: Vec<u32> = denied(socket_pairs).into_iter().map(|n| n as u32).collect();
    numbers.push(libc::SYS_clone as u32);
    numbers.sort_unstable();
    numbers.dedup();
    let mut program = vec![
        stmt(LD_W_ABS, ARCH),
        jump(JEQ_K, AUDIT_ARCH, 1, 0)?,
        // Another ABI (32-bit system calls on a 64-bit kernel) could reach
        // what this filter denies under other numbers.
        stmt(RET_K, RET_KILL_PROCESS),
        stmt(LD_W_ABS, NR),
        // x32 (and any number beyond the 64-bit table): denied as a whole.
        jump(JGE_K, X32_SYSCALL_BIT, 0, 1)?,
        stmt(RET_K, RET_ENOSYS),
    ];
    program.extend(tree(&numbers)?);
    Some(Filters { program })
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn build(_socket_pairs: bool) -> Option<Filters> {
    None
}

/// The decision for the syscall number in the accumulator, as a binary
/// search over `numbers` (sorted), with forward jumps only.
fn tree(numbers: &[u32]) -> Option<Vec<libc::sock_filter>> {
    if numbers.len() <= 2 {
        let mut code = Vec::new();
        for &n in numbers {
            let leaf = leaf(n);
            code.push(jump(JEQ_K, n, 0, leaf.len())?);
            code.extend(leaf);
        }
        code.push(stmt(RET_K, RET_ALLOW));
        return Some(code);
    }
    let mid = numbers.len() / 2;
    let low = tree(&numbers[..mid])?;
    let high = tree(&numbers[mid..])?;
    let mut code = vec![jump(JGE_K, numbers[mid], low.len(), 0)?];
    code.extend(low);
    code.extend(high);
    Some(code)
}

/// What a matched syscall number gets: `clone` is looked at further.
fn leaf(n: u32) -> Vec<libc::sock_filter> {
    if n == libc::SYS_clone as u32 {
        vec![
            stmt(LD_W_ABS, ARG0_LOW),
            libc::sock_filter {
                code: JSET_K as u16,
                jt: 1,
                jf: 0,
                k: NAMESPACE_FLAGS as u32,
            },
            stmt(RET_K, RET_ALLOW),
            stmt(RET_K, RET_ENOSYS),
        ]
    } else {
        vec![stmt(RET_K, RET_ENOSYS)]
    }
}

/// `SECCOMP_FILTER_FLAG_SPEC_ALLOW`: without it the kernel also turns on
/// speculative-store-bypass mitigation for the process, which makes every
/// context switch of a run dearer. A submission has no secret of the judge
/// in its address space to leak this way (the judge's memory is not shared
/// with it), so the mitigation buys nothing here.
const SPEC_ALLOW: libc::c_ulong = 1 << 2;

/// Installs the filter on the calling thread. Runs between fork and exec:
/// only system calls, no allocation. `no_new_privs` must already be set.
pub fn install(filters: &Filters) -> Result<(), i32> {
    let prog = libc::sock_fprog {
        len: filters.program.len() as u16,
        filter: filters.program.as_ptr().cast_mut(),
    };
    // SAFETY: `prog` points to a valid BPF program that outlives the call;
    // the kernel copies it.
    let r = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            SPEC_ALLOW,
            &prog as *const libc::sock_fprog,
        )
    };
    if r != 0 {
        return Err(super::errno::errno());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny interpreter for the instructions the filter uses.
    fn run(program: &[libc::sock_filter], arch: u32, nr: u32, arg0: u64) -> u32 {
        let mut acc = 0u32;
        let mut pc = 0;
        loop {
            let i = program[pc];
            let code = i.code as u32;
            if code == LD_W_ABS {
                acc = match i.k {
                    NR => nr,
                    ARCH => arch,
                    ARG0_LOW => arg0 as u32,
                    _ => panic!("unexpected load"),
                };
                pc += 1;
            } else if code == RET_K {
                return i.k;
            } else {
                let taken = match code {
                    JEQ_K => acc == i.k,
                    JGE_K => acc >= i.k,
                    JSET_K => acc & i.k != 0,
                    _ => panic!("unexpected instruction"),
                };
                pc += 1 + if taken { i.jt as usize } else { i.jf as usize };
            }
        }
    }

    #[test]
    fn denies_exactly_the_list() {
        for socket_pairs in [false, true] {
            denies_exactly(socket_pairs);
        }
        let pair = libc::SYS_socketpair as u32;
        let with = build(true).expect("filter");
        let without = build(false).expect("filter");
        assert_eq!(run(&with.program, AUDIT_ARCH, pair, 1), RET_ALLOW);
        assert_eq!(run(&without.program, AUDIT_ARCH, pair, 1), RET_ENOSYS);
    }

    fn denies_exactly(socket_pairs: bool) {
        let f = build(socket_pairs).expect("filter");
        let denied = denied(socket_pairs);
        for nr in 0..600u32 {
            let expect = if denied.contains(&(nr as libc::c_long)) {
                RET_ENOSYS
            } else {
                RET_ALLOW
            };
            assert_eq!(run(&f.program, AUDIT_ARCH, nr, 0), expect, "syscall {nr}");
        }
        let clone = libc::SYS_clone as u32;
        assert_eq!(
            run(&f.program, AUDIT_ARCH, clone, libc::SIGCHLD as u64),
            RET_ALLOW
        );
        let threads = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        assert_eq!(run(&f.program, AUDIT_ARCH, clone, threads), RET_ALLOW);
        assert_eq!(
            run(&f.program, AUDIT_ARCH, clone, libc::CLONE_NEWUSER as u64),
            RET_ENOSYS
        );
        assert_eq!(
            run(&f.program, AUDIT_ARCH, clone, libc::CLONE_NEWNET as u64),
            RET_ENOSYS
        );
        assert_eq!(run(&f.program, 0x4000_0003, 0, 0), RET_KILL_PROCESS);
        // The x32 ABI's numbers (same audit architecture, bit 30 set) of
        // calls allowed and denied alike: never let through.
        for nr in [0u32, 1, 41, 101, 425, 0x200] {
            assert_eq!(
                run(&f.program, AUDIT_ARCH, nr | X32_SYSCALL_BIT, 0),
                RET_ENOSYS,
                "x32 syscall {nr}"
            );
        }
        assert_eq!(run(&f.program, AUDIT_ARCH, u32::MAX, 0), RET_ENOSYS);
        // Short paths: the kernel evaluates the filter per syscall number
        // (a balanced tree of ~70 numbers, three instructions a leaf).
        assert!(f.program.len() < 240, "{} instructions", f.program.len());
    }
}
