//! Red-team attacks beyond the hostile corpus of tests/sandbox.rs: each is
//! a real hostile submission (tests/hostile/red) judged by the real binary
//! in a cage of its own, and each test checks the verdict *and* that the
//! judge and the machine are unharmed, through the harness every attack
//! shares (tests/common/attack.rs): the judge exits with the code its
//! verdict calls for, no file of the project changed, nothing named after
//! the attack appeared outside the run's folder, and no process of the run
//! is left.
//!
//! The `user_` tests judge as `nobody` (the unprivileged mode); they need
//! root to switch, and fail under `CI=true` when they cannot run.

#[path = "common/attack.rs"]
mod attack;
#[path = "hostile/harness.rs"]
mod harness;

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::Command;

use attack::{Attack, LIMITS_DEFAULT, LIMITS_SMALL, NOT_ROOT, expect, me};
use harness::{As, Canary, nobody, nonce};

// ---------------------------------------------------------------------
// Resources

fn thread_bomb(who: As) {
    let a = Attack::new(who, &[], LIMITS_SMALL);
    let before = harness::all_pids().len();
    let j = a.run("red/thread_bomb.c", None);
    let v = j.verdict();
    assert!(v == "TLE" || v == "RE" || v == "MLE", "{}", j.show());
    let after = harness::all_pids().len();
    assert!(
        after < before + 50,
        "processes went from {before} to {after}"
    );
}

/// Threads without end, and forks when threads are refused: contained by
/// the run's task limit, nothing left.
#[test]
fn thread_bomb_is_contained() {
    thread_bomb(As::Me);
}

#[test]
fn user_thread_bomb_is_contained() {
    if let Some(who) = nobody(NOT_ROOT) {
        thread_bomb(who);
    }
}

/// 1 GiB of shared anonymous memory (shmem, outside the program's own
/// anonymous pages): MLE with a memory group, a failed `mmap` (RE) under
/// the address-space cap.
#[test]
fn shared_memory_counts_towards_the_limit() {
    let a = Attack::new(As::Me, &[], LIMITS_SMALL);
    let j = a.run("red/shared_mmap.c", None);
    let iso = j.result["isolation"].as_str().unwrap_or("");
    if iso.contains("cgroups") {
        assert_eq!(j.verdict(), "MLE", "{}", j.show());
    } else {
        assert!(iso.contains("address-space cap"), "{}", j.show());
        assert_eq!(j.verdict(), "RE", "{}", j.show());
    }
}

/// Memory held in UNIX socket buffers by several processes: either the
/// run could not hold more than its limit there (socket pairs are refused
/// to native programs: AC, where the program says PWNED and gets WA if it
/// held more) or it is MLE. As an ordinary user no memory group would
/// count those buffers.
fn socket_buffers(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_SMALL);
    a.off = off;
    let j = a.run("red/socket_buffers.c", None);
    if off {
        expect(&j, off);
    } else {
        assert!(j.verdict() == "MLE" || j.verdict() == "AC", "{}", j.show());
    }
}

#[test]
fn socket_buffers_are_memory() {
    socket_buffers(As::Me, false);
}

#[test]
fn user_socket_buffers_are_memory() {
    if let Some(who) = nobody(NOT_ROOT) {
        socket_buffers(who, false);
    }
}

fn starve(who: As) {
    let mut canary = Canary::start(who);
    let nice_of = |pid: u32| {
        // SAFETY: getpriority has no memory preconditions.
        unsafe { libc::getpriority(libc::PRIO_PROCESS, pid) }
    };
    let affinity_of = |pid: u32| {
        fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("Cpus_allowed_list"))
                    .map(str::to_string)
            })
    };
    let before = (
        nice_of(std::process::id()),
        nice_of(canary.pid()),
        affinity_of(std::process::id()),
    );
    let a = Attack::new(who, &[me()], LIMITS_DEFAULT);
    let j = a.run("red/sched_starve.c", None);
    let after = (
        nice_of(std::process::id()),
        nice_of(canary.pid()),
        affinity_of(std::process::id()),
    );
    assert_eq!(before, after, "priorities changed: {}", j.show());
    assert!(canary.alive());
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

/// Renicing, pinning or I/O-starving the judge's processes, or taking a
/// real-time class: nothing outside the run changes.
#[test]
fn cannot_starve_the_judge() {
    starve(As::Me);
}

#[test]
fn user_cannot_starve_the_judge() {
    if let Some(who) = nobody(NOT_ROOT) {
        starve(who);
    }
}

fn limits(who: As) {
    let a = Attack::new(who, &[me()], LIMITS_DEFAULT);
    let j = a.run("red/rlimit_raise.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

/// Raising its own hard limits, or reading and changing another process's.
#[test]
fn limits_stay_put() {
    limits(As::Me);
}

#[test]
fn user_limits_stay_put() {
    if let Some(who) = nobody(NOT_ROOT) {
        limits(who);
    }
}

/// Files without a name in the working folder (`O_TMPFILE`, unlinked while
/// open), 720 MiB asked for against an 8 MiB cap and held until the run is
/// killed: the kernel refuses what is past the cap (the working folder is a
/// tmpfs of that size) and the watcher sees the tmpfs full: OLE, where a
/// walk of the folder sees nothing and the run ends at its time limit.
#[test]
fn disk_cap_counts_nameless_files() {
    let a = Attack::new(As::Me, &[], LIMITS_SMALL);
    let j = a.run("red/disk_unlinked.c", None);
    assert_eq!(j.verdict(), "OLE", "{}", j.show());
    j.assert_exit_matches();
    // The kernel held it to the cap: a page past 8 MiB at most.
    let stderr = j.result["tests"][0]["stderr"].as_str().unwrap_or("");
    let held = stderr
        .lines()
        .find_map(|l| l.strip_prefix("held "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(held.is_some_and(|mib| mib <= 8), "{}", j.show());
    assert!(
        j.result["isolation"]
            .as_str()
            .is_some_and(|i| i.contains("tmpfs working folder")),
        "{}",
        j.show()
    );
}

// ---------------------------------------------------------------------
// Persisting

/// A core dump asked for from /tmp leaves no core file there.
#[test]
fn a_crash_leaves_no_core_file() {
    let core = Path::new("/tmp/core");
    let before = core.symlink_metadata().ok().map(|m| (m.ino(), m.mtime()));
    let a = Attack::new(As::Me, &[], LIMITS_DEFAULT);
    let j = a.run("red/core_dump.c", None);
    let after = core.symlink_metadata().ok().map(|m| (m.ino(), m.mtime()));
    assert_eq!(before, after, "a core file was written: {}", j.show());
    assert_eq!(j.verdict(), "RE", "{}", j.show());
}

/// The SysV objects of `key` that exist now.
fn sysv_objects(key: i32) -> Vec<String> {
    let hex = format!("{key}");
    ["shm", "msg", "sem"]
        .iter()
        .filter_map(|k| fs::read_to_string(format!("/proc/sysvipc/{k}")).ok())
        .flat_map(|t| {
            t.lines()
                .skip(1)
                .filter(|l| l.split_whitespace().next() == Some(hex.as_str()))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn ipc(who: As, off: bool) {
    let key = 0x5244_0000 | (std::process::id() as i32 & 0xffff);
    let tag = nonce();
    let mut a = Attack::new(who, &[key.to_string(), tag.clone()], LIMITS_DEFAULT);
    a.off = off;
    let j = a.run("red/ipc_leftovers.c", None);
    let shm: Vec<_> = fs::read_dir("/dev/shm")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().contains(&tag))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    let mq = Path::new("/dev/mqueue").join(format!("grundy-red-{tag}"));
    let sysv = sysv_objects(key);
    // Cleaned up before asserting, so that a failure leaves nothing either.
    for f in &shm {
        let _ = fs::remove_file(f);
    }
    let _ = fs::remove_file(&mq);
    for kind in ["-M", "-Q", "-S"] {
        if !sysv.is_empty() {
            let _ = Command::new("ipcrm")
                .arg(kind)
                .arg(key.to_string())
                .status();
        }
    }
    if !off {
        assert!(shm.is_empty(), "left in /dev/shm: {shm:?}");
        assert!(sysv.is_empty(), "SysV objects left: {sysv:?}");
    }
    expect(&j, off);
}

/// POSIX and SysV shared memory, semaphores and queues, and a FIFO in
/// /dev/shm: none can be made, none outlives the run.
#[test]
fn leaves_no_ipc_objects() {
    ipc(As::Me, false);
}

#[test]
fn user_leaves_no_ipc_objects() {
    if let Some(who) = nobody(NOT_ROOT) {
        ipc(who, false);
    }
}

fn keys_described(desc: &str) -> bool {
    fs::read_to_string("/proc/keys").is_ok_and(|k| k.contains(desc))
}

fn kernel(who: As) {
    let desc = format!("grundy-red-{}", nonce());
    let a = Attack::new(who, std::slice::from_ref(&desc), LIMITS_DEFAULT);
    let j = a.run("red/kernel_surface.c", None);
    let kept = keys_described(&desc);
    assert!(!kept, "a key was left in a keyring: {}", j.show());
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

/// Keyrings, userfaultfd, eBPF, perf, namespaces, mounts, chroot,
/// fanotify: all refused, and no key outlives the run.
#[test]
fn kernel_surface_is_closed() {
    kernel(As::Me);
}

#[test]
fn user_kernel_surface_is_closed() {
    if let Some(who) = nobody(NOT_ROOT) {
        kernel(who);
    }
}

// ---------------------------------------------------------------------
// Escaping and signalling

fn ptrace(who: As, off: bool) {
    let canary = Canary::start(who);
    // Without the sandbox only the canary: a control that stopped the
    // test, the judge or the machine's pid 1 would harm what it checks.
    let targets = if off {
        vec![canary.pid().to_string()]
    } else {
        vec![canary.pid().to_string(), me(), "parent".into(), "1".into()]
    };
    let mut a = Attack::new(who, &targets, LIMITS_DEFAULT);
    a.off = off;
    let j = a.run("red/ptrace_peers.c", None);
    expect(&j, off);
}

/// `ptrace`, `process_vm_readv`, `/proc/PID/mem` and `pidfd_getfd` on
/// processes of the judge's user, the run's parent and pid 1.
#[test]
fn traces_nothing_outside() {
    ptrace(As::Me, false);
}

#[test]
fn user_traces_nothing_outside() {
    if let Some(who) = nobody(NOT_ROOT) {
        ptrace(who, false);
    }
}

fn signals(who: As, off: bool) {
    let mut canary = Canary::start(who);
    let mut a = Attack::new(who, &[canary.pid().to_string(), me()], LIMITS_DEFAULT);
    a.off = off;
    let j = a.run("red/signal_judge.c", None);
    // Killed (without the sandbox) shows once the kernel has run it.
    let ended = if off {
        canary.ends_within(std::time::Duration::from_secs(60))
    } else {
        !canary.alive()
    };
    assert_eq!(ended, off, "the canary: {}", j.show());
    expect(&j, off);
}

/// `tgkill`, `pidfd_send_signal`, `sigqueue`, process groups: no signal
/// reaches outside the run, and the judge ends normally.
#[test]
fn signals_reach_nothing_outside() {
    signals(As::Me, false);
}

#[test]
fn user_signals_reach_nothing_outside() {
    if let Some(who) = nobody(NOT_ROOT) {
        signals(who, false);
    }
}

fn sockets(who: As, off: bool) {
    let tag = nonce();
    let path = std::env::temp_dir().join(format!("grundy-red-{tag}.sock"));
    let listener = UnixListener::bind(&path).expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let abstract_name = format!("grundy-red-abstract-{tag}");
    let abstract_listener = {
        use std::os::linux::net::SocketAddrExt;
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(abstract_name.as_bytes())
            .expect("abstract address");
        UnixListener::bind_addr(&addr).expect("bind abstract")
    };
    abstract_listener
        .set_nonblocking(true)
        .expect("nonblocking");
    if who == As::Nobody {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(&path, fs::Permissions::from_mode(0o777));
    }
    let mut a = Attack::new(
        who,
        &[path.display().to_string(), abstract_name],
        LIMITS_DEFAULT,
    );
    a.off = off;
    let j = a.run("red/unix_sockets.c", None);
    let by_path = listener.accept().is_ok();
    let by_name = abstract_listener.accept().is_ok();
    let _ = fs::remove_file(&path);
    assert_eq!(
        by_path,
        off,
        "a connection at {}: {}",
        path.display(),
        j.show()
    );
    assert_eq!(
        by_name,
        off,
        "a connection at the abstract socket: {}",
        j.show()
    );
    expect(&j, off);
}

/// UNIX sockets by path and abstract name, system buses, netlink, io_uring.
#[test]
fn reaches_no_local_service() {
    sockets(As::Me, false);
}

#[test]
fn user_reaches_no_local_service() {
    if let Some(who) = nobody(NOT_ROOT) {
        sockets(who, false);
    }
}

// ---------------------------------------------------------------------
// Reading answers

fn snoop(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let answers = a.answers.clone();
    let mut lines = vec![me()];
    for pid in ["self", "1", &me()] {
        lines.push(format!("/proc/{pid}/environ"));
        lines.push(format!("/proc/{pid}/cwd"));
        lines.push(format!("/proc/{pid}/fd"));
        lines.push(format!("/proc/{pid}/root{}", a.p.path("home").display()));
        for ans in &answers {
            lines.push(format!("/proc/{pid}/root{}", ans.display()));
        }
    }
    lines.push(format!("/proc/{}/cwd/problems/p/problem.yaml", me()));
    lines.push("/proc/self/cwd/..".into());
    lines.push("/proc/self/../1/environ".into());
    lines.push("/sys/fs/cgroup".into());
    a.input(1, &lines, LIMITS_DEFAULT);
    let j = a.run("red/proc_snoop.c", None);
    let text = j.show();
    expect(&j, off);
    if !off {
        assert!(!text.contains("judge-secret-environment"), "{text}");
        assert!(!text.contains("ANSWER-SECRET"), "{text}");
    }
}

/// The judge's environment, cwd, root and descriptors seen through /proc
/// (of the test's process, the run's pid 1, itself), and every process's
/// environment: nothing of the judge is read.
#[test]
fn reads_nothing_through_proc() {
    snoop(As::Me, false);
}

#[test]
fn user_reads_nothing_through_proc() {
    if let Some(who) = nobody(NOT_ROOT) {
        snoop(who, false);
    }
}

fn stat_answers(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let answers = a.answers.clone();
    let lines: Vec<String> = answers.iter().map(|p| p.display().to_string()).collect();
    a.input(1, &lines, LIMITS_DEFAULT);
    let j = a.run("red/stat_answer.c", None);
    expect(&j, off);
}

/// `stat`, `access` and `statx` of a cached answer (whose size is the
/// answer of a one-word problem): the answers are not in the run's view
/// at all, as root and as an ordinary user (whose view is built in its
/// user namespace).
#[test]
fn cannot_stat_cached_answers() {
    if !harness::is_root() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test needs root"
        );
        return;
    }
    stat_answers(As::Me, false);
}

#[test]
fn user_cannot_stat_cached_answers() {
    if let Some(who) = nobody(NOT_ROOT) {
        stat_answers(who, false);
    }
}

/// The assembler's `.incbin` pulls a file into the program at compile
/// time, out of the preprocessor's sight: a cached answer, the judge's
/// environment. Compile error, and nothing of them in the report.
fn incbin(who: As) {
    let a = Attack::new(who, &[], LIMITS_DEFAULT);
    let answers = a.answers.clone();
    a.input(1, &[], LIMITS_DEFAULT);
    let template =
        fs::read_to_string(Path::new(harness::HOSTILE).join("red/incbin.c.in")).expect("template");
    for target in answers
        .iter()
        .map(|p| p.display().to_string())
        .chain([format!("/proc/{}/environ", me())])
    {
        let text = template.replace("@PATH@", &target);
        let j = a.run("red/incbin.c", Some(text));
        let shown = j.show();
        assert_eq!(j.verdict(), "CE", "{target}: {shown}");
        assert!(!shown.contains("ANSWER-SECRET"), "{shown}");
        assert!(!shown.contains("judge-secret-environment"), "{shown}");
    }
}

#[test]
fn assembler_cannot_include_answers() {
    incbin(As::Me);
}

#[test]
fn user_assembler_cannot_include_answers() {
    if let Some(who) = nobody(NOT_ROOT) {
        incbin(who);
    }
}

// ---------------------------------------------------------------------
// Writing outside

fn links(who: As, off: bool) {
    let tag = nonce();
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let victim = a.p.write("home/victim.txt", "untouched\n");
    let tmp = std::env::temp_dir();
    let lines = vec![
        tmp.join(format!("grundy-red-sym-{tag}"))
            .display()
            .to_string(),
        victim.display().to_string(),
        tmp.join(format!("grundy-red-moved-{tag}"))
            .display()
            .to_string(),
        tmp.join(format!("grundy-red-dir-{tag}"))
            .display()
            .to_string(),
        format!("grundy-red-up-{tag}"),
    ];
    a.tag = tag;
    a.input(1, &lines, LIMITS_DEFAULT);
    let j = a.run("red/links_escape.c", None);
    assert_eq!(
        fs::read_to_string(&victim).unwrap_or_default() == "untouched\n",
        !off,
        "{}",
        j.show()
    );
    expect(&j, off);
}

/// Symbolic and hard links to files outside, renames and folders out of
/// its folder, its parent through `/proc/self/cwd/..`: nothing is written.
#[test]
fn links_lead_nowhere() {
    links(As::Me, false);
}

#[test]
fn user_links_lead_nowhere() {
    if let Some(who) = nobody(NOT_ROOT) {
        links(who, false);
    }
}

fn touch_files(who: As) {
    let a = Attack::new(who, &[], LIMITS_DEFAULT);
    let answers = a.answers.clone();
    let mut lines: Vec<String> = answers.iter().map(|p| p.display().to_string()).collect();
    for rel in [
        "cache",
        "cache/bin",
        "problems",
        "problems/p/problem.yaml",
        "home",
    ] {
        lines.push(a.p.path(rel).display().to_string());
    }
    a.input(1, &lines, LIMITS_DEFAULT);
    let j = a.run("red/chmod_judge.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
    // Judged again from the cache: its own program was not changed either.
    let j = a.run("red/chmod_judge.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

/// `chmod`, `utimes`, `setxattr` and `truncate` of the cache, its answers,
/// its own compiled program and the problems. As root the run's uid owns
/// none of them.
#[test]
fn cannot_touch_the_judges_files() {
    if !harness::is_root() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test needs root"
        );
        return;
    }
    touch_files(As::Me);
}

/// The same as an ordinary user, whose runs have its uid: in their view
/// the answers are not there, the home is an empty tmpfs, and every other
/// mount is read-only, so nothing of the judge's can be changed.
#[test]
fn user_cannot_touch_the_judges_files() {
    if let Some(who) = nobody(NOT_ROOT) {
        touch_files(who);
    }
}

/// Setting the machine's clocks, to the time they show.
#[test]
fn clocks_stay_the_machines() {
    let a = Attack::new(As::Me, &[], LIMITS_DEFAULT);
    let j = a.run("red/clock_tamper.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

/// The controls: the same attacks with `--sandbox off` do get through (as
/// root: the program then runs as root), so the tests above can fail.
#[test]
fn controls_without_sandbox_get_through() {
    if !harness::is_root() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but the controls need root"
        );
        return;
    }
    ipc(As::Me, true);
    ptrace(As::Me, true);
    signals(As::Me, true);
    sockets(As::Me, true);
    snoop(As::Me, true);
    stat_answers(As::Me, true);
    links(As::Me, true);
    inherited(As::Me, true);
    socket_buffers(As::Me, true);
}

/// The x32 ABI's numbers for what the filter denies (a kernel built with
/// x32 support would otherwise run them): refused like the 64-bit ones.
#[test]
fn no_side_door_through_x32() {
    let a = Attack::new(As::Me, &[], LIMITS_DEFAULT);
    let j = a.run("red/x32_syscalls.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

fn inherited(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let secret = a.p.path("parent-secret.txt");
    harness::secret_file(&secret, &format!("FD-SECRET-{}\n", a.tag));
    let log = a.p.path("parent-log.txt");
    harness::secret_file(&log, "the judge's parent's log\n");
    a.p.hand_over();
    let open = |path: &Path, write: bool| {
        fs::OpenOptions::new()
            .read(!write)
            .append(write)
            .open(path)
            .expect("open a file for the judge to inherit")
    };
    a.inherit = vec![open(&secret, false), open(&log, true)];
    let j = a.run("red/inherited_fds.c", None);
    expect(&j, off);
    let text = j.show();
    let written = fs::read_to_string(&log).unwrap_or_default();
    if off {
        assert!(text.contains("FD-SECRET"), "{text}");
        assert!(written.contains("PWNED-WRITE"), "{written}");
    } else {
        assert!(!text.contains("FD-SECRET"), "{text}");
        assert!(!written.contains("PWNED"), "{written}");
    }
}

/// Descriptors the judge inherited from whoever started it (a shell's
/// `3<secret`, a grading script's log) are open in the judge without
/// close-on-exec: a run reads and writes none of them, directly or
/// through its pid 1's `/proc/1/fd`.
#[test]
fn inherited_descriptors_of_the_judge_are_closed() {
    inherited(As::Me, false);
}

#[test]
fn user_inherited_descriptors_of_the_judge_are_closed() {
    if let Some(who) = nobody(NOT_ROOT) {
        inherited(who, false);
    }
}
