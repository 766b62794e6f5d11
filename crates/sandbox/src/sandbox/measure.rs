//! What a run used, measured by the judge: CPU time from /proc, the
//! program's own peak memory (not the judge's, which the kernel folds into
//! `ru_maxrss`), the bytes its folder holds; and the limits those figures
//! show crossed. Facts only: which of several crossed limits decides the
//! verdict is `verdict::decide`'s business.

use std::fs::File;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use super::{Crossed, Exit, LimitHit, RunLimits};
use crate::units::Bytes;

/// Every limit a finished run crossed: the one the sandbox stopped it at
/// (`stopped`), the ones the kernel enforced (`SIGXCPU`, `SIGXFSZ`), and
/// the ones its figures show.
pub(super) fn crossed(
    stopped: Option<LimitHit>,
    exit: Exit,
    cpu: Duration,
    output_size: Bytes,
    peak_memory: Bytes,
    wall: Duration,
    l: &RunLimits,
) -> Crossed {
    let mut c = Crossed {
        cpu: exit == Exit::Signal(libc::SIGXCPU) || cpu > l.cpu,
        wall: wall > l.wall,
        memory: peak_memory > l.memory,
        output: output_size > l.output || exit == Exit::Signal(libc::SIGXFSZ),
    };
    if let Some(s) = stopped {
        c.mark(s);
    }
    c
}

/// Lowers the judge's recorded peak resident size to its current size.
///
/// The program's process shares the judge's memory until it executes the
/// program, and the kernel then folds the peak of that memory into the
/// program's own `ru_maxrss`. Without this, a judge that once held a large
/// file would make every later run look as big; with it, the figure a
/// program reports is its own peak or the judge's current size, whichever
/// is larger (a few MiB, see SECURITY.md).
pub(super) fn reset_peak_rss() {
    use std::io::Write;
    static CLEAR_REFS: std::sync::Mutex<Option<File>> = std::sync::Mutex::new(None);
    if let Ok(mut f) = CLEAR_REFS.lock() {
        if f.is_none() {
            *f = std::fs::OpenOptions::new()
                .write(true)
                .open("/proc/self/clear_refs")
                .ok();
        }
        if let Some(file) = f.as_mut() {
            // "5": reset the peak resident set size of the process.
            let _ = file.write_all(b"5");
        }
    }
}

/// The judge's peak resident size since the last [`reset_peak_rss`], in
/// bytes (0 when it cannot be read).
pub(super) fn own_hwm() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kib| kib * 1024)
}

/// The judge's resident size now, in bytes.
pub(super) fn own_rss() -> u64 {
    let Ok(statm) = std::fs::read_to_string("/proc/self/statm") else {
        return 0;
    };
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    // SAFETY: sysconf has no memory preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    pages * page
}

/// A judge bigger than this samples the program's own high-water mark
/// while it runs (without a memory group), since `ru_maxrss` cannot then
/// tell a program's peak from the judge's size.
const SAMPLE_ABOVE: u64 = 32 << 20;

/// Slack for what the judge's other threads allocate between the spawn and
/// the program's `exec`.
const FLOOR_SLACK: u64 = 4 << 20;

/// The program's own peak, without a memory group: `ru_maxrss` when it is
/// above the judge's size at the spawn (then it can only be the program's),
/// else the high-water mark sampled while it ran (the program stayed below
/// the judge's size, so `ru_maxrss` is the judge's, not the run's).
pub(super) fn own_peak(ru_maxrss: u64, floor: u64, sampled: u64) -> u64 {
    if ru_maxrss > floor.saturating_add(FLOOR_SLACK) || floor <= SAMPLE_ABOVE {
        ru_maxrss
    } else {
        sampled
    }
}

/// The program's own high-water mark (`VmHWM`), and the most memory the
/// run's processes held together (see [`tree_usage`]), sampled by the
/// watcher where the run has no memory group (`wanted`).
pub(super) struct HighWater<'a> {
    pub(super) wanted: bool,
    pub(super) program: &'a Path,
    pub(super) peak: u64,
    pub(super) together: u64,
}

impl HighWater<'_> {
    /// Looks at the program's process (the child of `init`) once it has
    /// executed the program: before that it shares the judge's memory.
    pub(super) fn sample(&mut self, init: libc::pid_t) {
        if !self.wanted {
            return;
        }
        let Ok(children) = std::fs::read_to_string(format!("/proc/{init}/task/{init}/children"))
        else {
            return;
        };
        for pid in children
            .split_whitespace()
            .filter_map(|c| c.parse::<libc::pid_t>().ok())
        {
            let exe = std::fs::read_link(format!("/proc/{pid}/exe"));
            if !exe.is_ok_and(|e| e == self.program) {
                continue;
            }
            let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
                continue;
            };
            let kib: u64 = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            self.peak = self.peak.max(kib * 1024);
        }
    }
}

/// Bytes held in a run's tmpfs, files without a name included, and
/// whether it is full (the kernel refuses the next page).
pub(super) fn tmpfs_usage(fd: &std::os::fd::OwnedFd) -> (u64, bool) {
    use std::os::fd::AsRawFd;
    // SAFETY: a plain struct filled by the kernel for a live descriptor.
    unsafe {
        let mut st: libc::statfs = std::mem::zeroed();
        if libc::fstatfs(fd.as_raw_fd(), &mut st) != 0 {
            return (0, false);
        }
        let used = (st.f_blocks.saturating_sub(st.f_bfree)).saturating_mul(st.f_bsize as u64);
        (used, st.f_bfree == 0)
    }
}

/// Bytes a folder holds (allocated blocks); huge when it cannot be walked
/// within a sane number of entries.
pub(super) fn disk_usage(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut total = 0u64;
    for (n, e) in walkdir::WalkDir::new(dir).into_iter().enumerate() {
        if n > 100_000 {
            return u64::MAX;
        }
        if let Ok(m) = e.and_then(|e| e.metadata()) {
            total = total.saturating_add(m.blocks() * 512);
        }
    }
    total
}

/// CPU time of `init` and all its descendants (live ones from /proc, ended
/// ones through the times of those that reaped them) and, with
/// `memory`, the memory its processes hold together, from one walk of its
/// /proc tree.
///
/// Without a memory group nothing else sees the sum: `RLIMIT_AS` and the
/// peak are per process, so a run of many processes could hold any
/// multiple of its limit. The sum is of each process's proportional set
/// size (`Pss` of `/proc/PID/smaps_rollup`): a page shared by several of
/// them (the C library, what a parent touched before it forked) counts
/// once in all, where `statm`'s resident size would count it once per
/// process and charge a forking program many times its real use. Reading
/// it walks the process's page tables, so it is read only when the run has
/// two processes or more: one process is already held to the limit by its
/// address-space cap and measured by its own peak. Where `smaps_rollup`
/// cannot be read (a process that made itself non-dumpable, outside a user
/// namespace), its resident size from `statm` (readable by anyone) counts.
///
/// `init` shares the judge's memory, and so does its child until that
/// executes the program (`CLONE_VM | CLONE_VFORK`, see `child.rs`): neither
/// is counted (the child is known by still running the judge's binary).
pub(super) fn tree_usage(init: libc::pid_t, memory: bool) -> (Duration, Option<u64>) {
    let mut total = Duration::ZERO;
    let mut todo = vec![(init, 0u8)];
    let mut program = Vec::new();
    let mut seen = 0;
    while let Some((p, depth)) = todo.pop() {
        seen += 1;
        if seen > 4096 {
            break;
        }
        total += cpu_time(p);
        if memory && depth > 0 {
            program.push((p, depth));
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for t in tasks.filter_map(Result::ok) {
            if let Ok(children) = std::fs::read_to_string(t.path().join("children")) {
                todo.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<libc::pid_t>().ok())
                        .map(|c| (c, depth.saturating_add(1))),
                );
            }
        }
    }
    // Which child of `init` still runs the judge is asked only here: most
    // runs are one process, and then nothing is read.
    let held = (program.len() >= 2).then(|| {
        program
            .iter()
            .filter(|&&(p, depth)| depth > 1 || !runs_the_judge(p))
            .map(|&(p, _)| proportional_size(p))
            .fold(0u64, u64::saturating_add)
    });
    (total, held)
}

/// Whether `pid` runs the judge's own binary: a child of `init` that has
/// not executed the program yet, and still shares the judge's memory.
fn runs_the_judge(pid: libc::pid_t) -> bool {
    static JUDGE: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();
    let judge = JUDGE.get_or_init(|| std::fs::read_link("/proc/self/exe").ok());
    match (judge, std::fs::read_link(format!("/proc/{pid}/exe"))) {
        (Some(judge), Ok(exe)) => exe == *judge,
        // Not readable: a program that made itself non-dumpable (the
        // judge's own clone is always readable to it). Gone: it counts 0.
        _ => false,
    }
}

/// Bytes `pid` holds: its `Pss`, or its resident size where that cannot
/// be read (see [`tree_usage`]); 0 for a process that is gone.
fn proportional_size(pid: libc::pid_t) -> u64 {
    if let Ok(rollup) = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")) {
        // A process that has ended (a zombie) has an empty rollup.
        return kib_field(&rollup, "Pss:").unwrap_or(0) * 1024;
    }
    let Ok(statm) = std::fs::read_to_string(format!("/proc/{pid}/statm")) else {
        return 0;
    };
    statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse::<u64>().ok())
        .unwrap_or(0)
        .saturating_mul(page_size())
}

/// The value in kB of the line of a /proc file that starts with `key`.
fn kib_field(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no memory preconditions.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64
}

/// utime + stime + cutime + cstime of one process (all its threads, and
/// the children it reaped), from /proc.
pub(super) fn cpu_time(pid: libc::pid_t) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return Duration::ZERO;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = [11, 12, 13, 14]
        .iter()
        .filter_map(|&i| f.get(i).and_then(|s| s.parse::<u64>().ok()))
        .sum();
    Duration::from_secs_f64(ticks as f64 / clock_ticks())
}

pub(super) fn clock_ticks() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

pub(super) fn timeval(t: libc::timeval) -> Duration {
    Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) as u32) * 1000)
}
