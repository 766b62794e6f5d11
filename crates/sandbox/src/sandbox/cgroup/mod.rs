//! Cgroup v1 groups for runs (root only): a hard cap on tasks (fork bombs),
//! a memory limit whose breach is an unambiguous MLE, and CPU time of
//! every process of the run, children and orphans included.
//!
//! Creating and removing cgroups costs far more than a trivial run, so each
//! concurrent run slot owns one group per controller and resets its
//! counters between runs, and the groups outlive the judge: they are named
//! after the block of run uids the slot's uid comes from, which one judge
//! at a time holds (see [`super::uids`]), as `grundy-b<dev>-<ino>-<slot>`
//! (the block's lock file and the slot's place in the block). A judge
//! leaves its groups empty when it exits (its zygotes killed), and the next
//! judge holding the block takes them over: it kills whatever is in them
//! (the runs of a judge killed with `-9`), then resets their counters and
//! limits. So there are never more groups than slots of the blocks in use,
//! and a second judge on an idle machine makes none. Groups are created
//! below the judge's own cgroups, so the limits of whoever runs the judge
//! still apply. The groups of blocks nobody holds are emptied and removed
//! by the next judge, as are the groups of the forms older judges used. A
//! block's lock file notes where its holder makes the block's groups: the
//! next holder, if it runs in other cgroups, removes them there.
//!
//! The memory group's OOM killer is switched off, and the judge ends the
//! run itself when the group runs out of memory. The kernel's killer would
//! pick the largest task in the group, and a slot's zygote and each run's
//! `init` live there while sharing the judge's memory (see `zygote.rs`):
//! they carry the judge's whole resident size, and the killer kills every
//! process sharing its victim's memory, so a run of many small processes
//! would take the judge down with it. Exempting the judge through
//! `oom_score_adj` would need `CAP_SYS_RESOURCE`, which a root judge in a
//! container often lacks; switching the killer off does not.

use std::fs;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};

mod sweep;

/// Where this process may create cgroups, per controller.
#[derive(Debug, Clone)]
pub struct Hierarchies {
    pub pids: PathBuf,
    pub memory: PathBuf,
    pub cpuacct: PathBuf,
}

impl Hierarchies {
    /// Finds the v1 hierarchies of the three controllers and checks that we
    /// may create groups in them.
    pub fn find() -> Option<Hierarchies> {
        let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
        let own = fs::read_to_string("/proc/self/cgroup").ok()?;
        let dir = |controller: &str| -> Option<PathBuf> {
            let mount = mountinfo.lines().find_map(|l| {
                let (left, right) = l.split_once(" - ")?;
                let mut r = right.split_whitespace();
                if r.next()? != "cgroup" {
                    return None;
                }
                let opts = r.nth(1)?;
                opts.split(',')
                    .any(|o| o == controller)
                    .then(|| left.split_whitespace().nth(4))?
            })?;
            let path = own.lines().find_map(|l| {
                let mut parts = l.splitn(3, ':');
                let _id = parts.next()?;
                let ctrls = parts.next()?;
                let path = parts.next()?;
                ctrls.split(',').any(|c| c == controller).then_some(path)
            })?;
            Some(Path::new(mount).join(path.trim_start_matches('/')))
        };
        let h = Hierarchies {
            pids: dir("pids")?,
            memory: dir("memory")?,
            cpuacct: dir("cpuacct")?,
        };
        let first = super::uids::id(0).ok()?;
        h.make_first_slot(&first)?;
        h.note_block(first.block);
        h.remove_stale(first.block);
        Some(h)
    }

    /// The three hierarchies' folders, in the order of the fields (the
    /// order a block's note lists them in).
    fn all(&self) -> [&Path; 3] {
        [&self.pids, &self.memory, &self.cpuacct]
    }

    /// Checks that we may have groups by making the first run slot's, or
    /// finding them left by the block's previous holder (which
    /// [`Groups::create`] then finds), rather than a probe group made and
    /// removed only to be made again: a memory group costs a fraction of a
    /// millisecond to make and as much to remove.
    fn make_first_slot(&self, first: &super::uids::RunId) -> Option<()> {
        let name = group_name(first);
        let mut made = Vec::new();
        for base in self.all() {
            let dir = base.join(&name);
            match fs::create_dir(&dir) {
                Ok(()) => made.push(dir),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(_) => {
                    for d in &made {
                        let _ = fs::remove_dir(d);
                    }
                    return None;
                }
            }
        }
        Some(())
    }
}

/// The name of a run slot's groups, after its place in the blocks of run
/// uids this judge holds.
fn group_name(run: &super::uids::RunId) -> String {
    format!("grundy-b{}-{}-{}", run.block.dev, run.block.ino, run.offset)
}

/// One slot's groups.
#[derive(Debug)]
pub struct Groups {
    dirs: [PathBuf; 3],
    /// `tasks` of each group, opened by the judge so that the zygote joins
    /// with one write of "0" (its one thread). Not `cgroup.procs`: moving a
    /// whole thread group takes the kernel's threadgroup lock for writing,
    /// which waits for an RCU grace period (5–20 ms on an idle machine),
    /// while current kernels move a thread that moves itself through `tasks`
    /// without that lock (0.02 ms). The zygote, like any process cloned
    /// without `CLONE_THREAD`, is one thread, so moving it moves all of it.
    pub join: Vec<OwnedFd>,
    /// An eventfd the kernel signals when the memory group runs out of
    /// memory (the group's tasks then wait, since its OOM killer is off).
    oom_event: OwnedFd,
    cpu_usage: fs::File,
    /// `memory.max_usage_in_bytes`: the run's own peak (reset before each
    /// run), which, unlike `ru_maxrss`, owes nothing to the judge whose
    /// memory the run's processes share until they execute the program.
    max_usage: fs::File,
    /// `memory.usage_in_bytes`, read at each reset: see [`Groups::peak_memory`].
    usage: fs::File,
    /// The group's usage when the peak was last reset, in bytes.
    baseline: std::sync::atomic::AtomicU64,
    /// The memory limit last written, to skip rewriting an equal one.
    limit: std::sync::atomic::AtomicU64,
}

static RUNS_WITHOUT_GROUPS: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Records that a run went without cgroups although the probe found them
/// (its slot's groups could not be made), so that reports stop claiming them.
pub fn note_run_without_groups() {
    RUNS_WITHOUT_GROUPS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether some run of this process went without cgroups.
pub fn runs_lacked_groups() -> bool {
    RUNS_WITHOUT_GROUPS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The most tasks (processes and threads) a run may have at once: enough
/// for the JVM's and rustc's threads, far too few for a fork bomb to matter.
pub const MAX_TASKS: u64 = 256;

impl Groups {
    /// Makes the groups of the slot whose uid is `run`, or takes over those
    /// its block's previous holder left: what is in them (runs of a judge
    /// that was killed) is killed first, and the limits and counters that
    /// outlive a run are reset. Their OOM notification is registered anew:
    /// the previous holder's ended with its eventfd.
    pub fn create(h: &Hierarchies, run: &super::uids::RunId) -> io::Result<Groups> {
        if run.offset == 0 {
            h.note_block(run.block);
        }
        let name = group_name(run);
        let dirs = [
            h.pids.join(&name),
            h.memory.join(&name),
            h.cpuacct.join(&name),
        ];
        let mut join = Vec::new();
        let mut reused = false;
        for d in &dirs {
            match fs::create_dir(d) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => reused = true,
                Err(e) => return Err(e),
            }
            let f = fs::OpenOptions::new().write(true).open(d.join("tasks"))?;
            join.push(OwnedFd::from(f));
        }
        if reused {
            for d in &dirs {
                if !kill_all(d) {
                    return Err(io::Error::other(format!(
                        "{} keeps processes that cannot be killed",
                        d.display()
                    )));
                }
            }
            // No limit until the first run sets its own (`limit` below is
            // 0, so it will): the zygote starts in the group.
            write(&dirs[1].join("memory.limit_in_bytes"), "-1")?;
            write(&dirs[2].join("cpuacct.usage"), "0")?;
        }
        write(&dirs[0].join("pids.max"), &MAX_TASKS.to_string())?;
        write(&dirs[1].join("memory.oom_control"), "1")?;
        let oom_control = fs::File::open(dirs[1].join("memory.oom_control"))?;
        // The registration holds the group, not the file: it may close.
        let oom_event = oom_eventfd(&dirs[1], &oom_control)?;
        let cpu_usage = fs::File::open(dirs[2].join("cpuacct.usage"))?;
        let max_usage = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(dirs[1].join("memory.max_usage_in_bytes"))?;
        let usage = fs::File::open(dirs[1].join("memory.usage_in_bytes"))?;
        Ok(Groups {
            dirs,
            join,
            oom_event,
            cpu_usage,
            max_usage,
            usage,
            baseline: std::sync::atomic::AtomicU64::new(0),
            limit: std::sync::atomic::AtomicU64::new(0),
        })
    }

    fn memory(&self) -> &Path {
        &self.dirs[1]
    }

    /// Prepares the groups for a run with this memory limit.
    ///
    /// The group's limit is the run's limit itself: the group is what
    /// enforces it (pages are charged when touched, so a large allocation
    /// that is never used costs nothing, and touching past the limit stops
    /// the run as `MLE`), and its peak is what the report shows. Page cache
    /// of the files the run writes is charged too but reclaimed before the
    /// limit is reached, so it never makes a run `MLE`.
    pub fn reset(&self, memory_limit: u64) -> io::Result<()> {
        use std::io::Seek;
        use std::sync::atomic::Ordering;
        let limit = memory_limit;
        // Writing 0 restarts the peak from the group's present usage.
        (&self.max_usage).seek(io::SeekFrom::Start(0))?;
        (&self.max_usage).write_all(b"0")?;
        let baseline = read_at_start(&self.usage)
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        self.baseline.store(baseline, Ordering::Relaxed);
        if self.limit.load(Ordering::Relaxed) != limit {
            write(
                &self.memory().join("memory.limit_in_bytes"),
                &limit.to_string(),
            )?;
            self.limit.store(limit, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Forgets out-of-memory events of earlier runs (call before a run).
    pub fn clear_oom(&self) {
        let mut count = 0u64;
        // SAFETY: a non-blocking read of 8 bytes into a local.
        unsafe {
            libc::read(
                self.oom_event.as_raw_fd(),
                (&mut count as *mut u64).cast(),
                8,
            )
        };
    }

    /// Readable when the group has run out of memory since [`Groups::clear_oom`].
    pub fn oom_event(&self) -> &OwnedFd {
        &self.oom_event
    }

    /// Whether the group ran out of memory since [`Groups::clear_oom`].
    pub fn oom_signalled(&self) -> bool {
        let mut p = libc::pollfd {
            fd: self.oom_event.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd; a zero timeout only looks.
        unsafe { libc::poll(&mut p, 1, 0) > 0 }
    }

    /// The run's peak memory since [`Groups::reset`], in bytes: the group's
    /// peak less what the group held at the reset. The group outlives its
    /// runs, and keeps charged what earlier runs and compiles left in the
    /// page cache (the files they wrote) until memory pressure reclaims it;
    /// none of that is this run's. (Leftovers reclaimed during the run can
    /// only make the figure smaller than the group's peak, never charge the
    /// run for another's memory; the limit itself is enforced by the group.)
    pub fn peak_memory(&self) -> Option<u64> {
        let peak: u64 = read_at_start(&self.max_usage).and_then(|s| s.trim().parse().ok())?;
        let baseline = self.baseline.load(std::sync::atomic::Ordering::Relaxed);
        Some(peak.saturating_sub(baseline))
    }

    /// CPU time of every task that ever ran in the group, in nanoseconds.
    pub fn cpu_ns(&self) -> Option<u64> {
        read_at_start(&self.cpu_usage).and_then(|s| s.trim().parse().ok())
    }

    /// Whether no process is left in the groups; kills leftovers.
    pub fn drain(&self) -> bool {
        for d in &self.dirs {
            if !kill_all(d) {
                return false;
            }
        }
        true
    }

    /// Removes the groups (when a slot is abandoned after a failure).
    pub fn remove(&self) {
        for d in &self.dirs {
            empty_and_remove(d);
        }
    }

    /// Whether the groups no longer exist (they were removed), so a new
    /// slot may take their name without meeting what a run left there.
    pub fn gone(&self) -> bool {
        self.dirs.iter().all(|d| !d.exists())
    }
}

fn read_at_start(f: &fs::File) -> Option<String> {
    use std::os::unix::fs::FileExt;
    let mut buf = [0u8; 512];
    let n = f.read_at(&mut buf, 0).ok()?;
    Some(String::from_utf8_lossy(&buf[..n]).into_owned())
}

/// Registers a non-blocking eventfd for the group's OOM notifications
/// (`cgroup.event_control`, cgroup v1).
fn oom_eventfd(dir: &Path, oom_control: &fs::File) -> io::Result<OwnedFd> {
    // SAFETY: eventfd has no memory preconditions.
    let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned this descriptor; we own it.
    let event = unsafe { OwnedFd::from_raw_fd(fd) };
    write(
        &dir.join("cgroup.event_control"),
        &format!("{} {}", event.as_raw_fd(), oom_control.as_raw_fd()),
    )?;
    Ok(event)
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    let mut f = fs::OpenOptions::new().write(true).open(path)?;
    f.write_all(value.as_bytes())
}

/// Kills every process in the group `dir`; true when it is empty.
fn kill_all(dir: &Path) -> bool {
    for _ in 0..50 {
        let Ok(list) = fs::read_to_string(dir.join("cgroup.procs")) else {
            return true;
        };
        let pids: Vec<libc::pid_t> = list.lines().filter_map(|l| l.trim().parse().ok()).collect();
        if pids.is_empty() {
            return true;
        }
        for pid in pids {
            // SAFETY: a plain signal to a process of the run's group.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    false
}

fn empty_and_remove(dir: &Path) {
    kill_all(dir);
    let _ = fs::remove_dir(dir);
}
