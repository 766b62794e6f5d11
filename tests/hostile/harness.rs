//! The harness of the hostile corpus: a throwaway problem, the real
//! `grundy` binary, and a cage of its own around every judge it starts, so
//! that a broken sandbox fails a test instead of taking the machine down.
//!
//! The cage: as root, a pids cgroup (at most 600 tasks) and a memory cgroup
//! (at most 3 GiB) made below the test's own groups; as an ordinary user (or
//! as root judging as `nobody`), `RLIMIT_NPROC` and `RLIMIT_AS`.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

/// One judge at a time: hostile runs are timed, and the machine has two cores.
pub static SERIAL: Mutex<()> = Mutex::new(());

pub const HOSTILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hostile");

pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Who the judge runs as.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum As {
    /// The test's own user (root in CI).
    Me,
    /// `nobody` (the test must be root to switch to it).
    Nobody,
}

pub const NOBODY: u32 = 65534;

/// A temporary project: a problem `p` whose reference prints the first
/// input line back, a private cache and a private $HOME.
pub struct Project {
    pub dir: tempfile::TempDir,
    pub who: As,
}

impl Project {
    pub fn new(who: As) -> Project {
        let dir = tempfile::Builder::new()
            .prefix("grundy-hostile-")
            .tempdir()
            .expect("tempdir");
        let p = Project { dir, who };
        fs::create_dir_all(p.path("home")).expect("home");
        fs::create_dir_all(p.path("cache")).expect("cache");
        // The judge's own binary, where `nobody` can run it.
        fs::copy(env!("CARGO_BIN_EXE_grundy"), p.path("grundy")).expect("copy grundy");
        p
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// The project's `grundy` with its problems and cache folders.
    pub fn grundy(&self) -> Command {
        let mut cmd = Command::new(self.path("grundy"));
        cmd.arg("--problems")
            .arg(self.path("problems"))
            .arg("--cache")
            .arg(self.path("cache"));
        cmd
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.path(rel);
        if let Some(d) = path.parent() {
            fs::create_dir_all(d).expect("mkdir");
        }
        fs::write(&path, text).expect("write");
        path
    }

    /// Writes problem `id` with one test whose input is `input` (its
    /// answer comes from the reference), and the given extra YAML (limits).
    pub fn problem(&self, id: &str, input: &str, limits: &str) {
        let reference = source("reference.c");
        self.write(&format!("problems/{id}/reference.c"), &reference);
        let spec = format!(
            "id: {id}\ntitle: Hostile\nreference: reference.c\n{limits}\ngroups:\n  - name: main\n    tests:\n      - input: {}\n",
            yaml_string(input)
        );
        self.write(&format!("problems/{id}/problem.yaml"), &spec);
    }

    /// A hostile (or legitimate) program from tests/hostile, made
    /// self-contained, as a submission file.
    pub fn submission(&self, name: &str) -> PathBuf {
        self.write(&format!("subs/{name}"), &source(name))
    }

    /// Makes everything `nobody`'s when the judge runs as `nobody`.
    pub fn hand_over(&self) {
        if self.who != As::Nobody {
            return;
        }
        for e in walkdir::WalkDir::new(self.dir.path())
            .into_iter()
            .filter_map(Result::ok)
        {
            let _ = std::os::unix::fs::lchown(e.path(), Some(NOBODY), Some(NOBODY));
        }
        let _ = fs::set_permissions(self.dir.path(), fs::Permissions::from_mode(0o755));
    }

    /// Runs `grundy judge <problem> <submission> --json` in a cage; returns
    /// the single result object and the judge's stderr.
    pub fn judge(
        &self,
        problem: &str,
        submission: &Path,
        extra: &[&str],
    ) -> (serde_json::Value, String) {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let (r, stderr, cage) = self.judge_caged(problem, submission, extra);
        drop(cage);
        (r, stderr)
    }

    /// Like [`Project::judge`], but the cage (which kills whatever is left
    /// in it when dropped) is handed back, so that what escaped the sandbox
    /// can still be seen. The caller must hold [`SERIAL`].
    pub fn judge_caged(
        &self,
        problem: &str,
        submission: &Path,
        extra: &[&str],
    ) -> (serde_json::Value, String, Cage) {
        self.hand_over();
        let mut cmd = Command::new(self.path("grundy"));
        cmd.arg("--problems")
            .arg(self.path("problems"))
            .arg("--cache")
            .arg(self.path("cache"))
            .args(extra)
            .arg("judge")
            .arg(problem)
            .arg(submission)
            .arg("--json")
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.path("home"))
            .env("GRUNDY_HOSTILE_MARKER", "judge-secret-environment")
            .current_dir(self.dir.path())
            .stdin(Stdio::null());
        let cage = Cage::new(self.who).expect("cage");
        cage.apply(&mut cmd);
        let out = run_with_timeout(cmd, Duration::from_secs(120));
        let stdout = String::from_utf8_lossy(&out.0).into_owned();
        let stderr = String::from_utf8_lossy(&out.1).into_owned();
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
            panic!("no JSON from grundy ({e}): stdout {stdout:?} stderr {stderr:?}")
        });
        let result = json["results"][0].clone();
        (result, stderr, cage)
    }
}

/// What a caged `grundy` did.
#[derive(Debug)]
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    /// Both streams, for messages and for looking for what must not be there.
    pub fn text(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

impl Project {
    /// Runs the project's `grundy` (its problems and cache) with `args`,
    /// caged, as the project's user, from the project's folder, with a
    /// clean environment holding `GRUNDY_HOSTILE_MARKER`.
    pub fn run(&self, args: &[&str]) -> Ran {
        self.hand_over();
        let mut cmd = self.grundy();
        cmd.args(args);
        self.run_command(cmd)
    }

    /// [`Project::run`] of a command of the project's `grundy` built by
    /// the caller (another cache, say), the files' owners as they are.
    pub fn run_command(&self, mut cmd: Command) -> Ran {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.path("home"))
            .env("GRUNDY_HOSTILE_MARKER", "judge-secret-environment")
            .env("NO_COLOR", "1")
            .current_dir(self.dir.path())
            .stdin(Stdio::null());
        let cage = Cage::new(self.who).expect("cage");
        cage.apply(&mut cmd);
        let (stdout, stderr, code) = run_with_timeout_code(cmd, Duration::from_secs(300));
        drop(cage);
        Ran {
            code,
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
        }
    }
}

/// Runs `cmd`; its output and exit code (`None`: killed by a signal).
fn run_with_timeout_code(mut cmd: Command, limit: Duration) -> (Vec<u8>, Vec<u8>, Option<i32>) {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let out = output_within(cmd.spawn().expect("spawn grundy"), limit);
    (out.stdout, out.stderr, out.status.code())
}

/// What `child` wrote and how it ended, waited for at most `limit`: a
/// hang detector, not a timing (far beyond any run's limits). A child
/// still running then is killed and the test fails.
pub fn output_within(child: std::process::Child, limit: Duration) -> std::process::Output {
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => panic!("grundy failed: {e}"),
        Err(_) => {
            // SAFETY: ending our own child.
            unsafe { libc::kill(id as i32, libc::SIGKILL) };
            panic!("grundy took longer than {limit:?}");
        }
    }
}

/// The test's verdict of a result, with the whole result in the message.
pub fn verdict(result: &serde_json::Value) -> String {
    result["verdict"].as_str().unwrap_or("?").to_string()
}

fn run_with_timeout(mut cmd: Command, limit: Duration) -> (Vec<u8>, Vec<u8>) {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let out = output_within(cmd.spawn().expect("spawn grundy"), limit);
    (out.stdout, out.stderr)
}

/// A program of tests/hostile with `common.h` inlined.
pub fn source(name: &str) -> String {
    let text = fs::read_to_string(Path::new(HOSTILE).join(name)).expect("hostile source");
    let common = fs::read_to_string(Path::new(HOSTILE).join("common.h")).expect("common.h");
    text.replace("#include \"common.h\"", &common)
}

fn yaml_string(s: &str) -> String {
    serde_json::to_string(s).expect("json string")
}

/// The cage of one judge process.
pub struct Cage {
    dirs: Vec<PathBuf>,
    procs: Vec<OwnedFd>,
    who: As,
}

/// At most this many tasks in the whole judge (it caps each run at 256).
const CAGE_TASKS: u64 = 600;
const CAGE_MEMORY: u64 = 3 << 30;

impl Cage {
    pub fn new(who: As) -> std::io::Result<Cage> {
        let mut cage = Cage {
            dirs: Vec::new(),
            procs: Vec::new(),
            who,
        };
        if is_root() {
            let name = format!("grundy-test-cage-{}-{}", std::process::id(), next_id());
            for (controller, file, value) in [
                ("pids", "pids.max", CAGE_TASKS),
                ("memory", "memory.limit_in_bytes", CAGE_MEMORY),
            ] {
                let base = own_cgroup(controller).ok_or_else(|| {
                    std::io::Error::other(format!("no {controller} cgroup to cage the judge in"))
                })?;
                let dir = base.join(&name);
                fs::create_dir(&dir)?;
                cage.dirs.push(dir.clone());
                fs::write(dir.join(file), value.to_string())?;
                let f = fs::OpenOptions::new()
                    .write(true)
                    .open(dir.join("cgroup.procs"))?;
                cage.procs.push(OwnedFd::from(f));
            }
        }
        Ok(cage)
    }

    /// The cage's cgroup folders (none unless root).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Makes `cmd` start inside the cage.
    pub fn apply(&self, cmd: &mut Command) {
        let fds: Vec<i32> = self.procs.iter().map(|f| f.as_raw_fd()).collect();
        let nobody = self.who == As::Nobody;
        let limit_tasks = nobody || !is_root();
        let tasks = CAGE_TASKS + if is_root() { 0 } else { processes_of_me() };
        // SAFETY: only async-signal-safe calls (write, setrlimit, setgroups,
        // setgid, setuid) between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                for &fd in &fds {
                    if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                if limit_tasks {
                    let n = libc::rlimit {
                        rlim_cur: tasks,
                        rlim_max: tasks,
                    };
                    libc::setrlimit(libc::RLIMIT_NPROC, &n);
                    let m = libc::rlimit {
                        rlim_cur: CAGE_MEMORY * 4,
                        rlim_max: CAGE_MEMORY * 4,
                    };
                    libc::setrlimit(libc::RLIMIT_AS, &m);
                }
                if nobody
                    && (libc::setgroups(0, std::ptr::null()) != 0
                        || libc::setgid(NOBODY) != 0
                        || libc::setuid(NOBODY) != 0)
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

impl Drop for Cage {
    fn drop(&mut self) {
        for dir in &self.dirs {
            remove_tree(dir);
        }
    }
}

/// Removes a cgroup and any groups left inside it, killing leftovers.
fn remove_tree(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.filter_map(Result::ok) {
            if e.path().is_dir() {
                remove_tree(&e.path());
            }
        }
    }
    for _ in 0..100 {
        if let Ok(list) = fs::read_to_string(dir.join("cgroup.procs")) {
            for pid in list.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                // SAFETY: killing a caged process of this test.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        if fs::remove_dir(dir).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn next_id() -> u64 {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
}

/// The folder of this process's cgroup for `controller` (cgroup v1).
pub fn own_cgroup(controller: &str) -> Option<PathBuf> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
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
    let own = fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let _ = parts.next()?;
        let ctrls = parts.next()?;
        let path = parts.next()?;
        ctrls.split(',').any(|c| c == controller).then_some(path)
    })?;
    Some(Path::new(mount).join(path.trim_start_matches('/')))
}

/// Processes of the test's user now (RLIMIT_NPROC counts them all).
fn processes_of_me() -> u64 {
    // SAFETY: getuid has no preconditions.
    let me = unsafe { libc::getuid() };
    all_pids()
        .into_iter()
        .filter(|pid| {
            fs::read_to_string(format!("/proc/{pid}/status"))
                .ok()
                .and_then(|s| {
                    s.lines()
                        .find_map(|l| l.strip_prefix("Uid:"))
                        .and_then(|u| {
                            u.split_whitespace()
                                .next()
                                .and_then(|x| x.parse::<u32>().ok())
                        })
                })
                == Some(me)
        })
        .count() as u64
}

pub fn all_pids() -> Vec<i32> {
    fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
                .collect()
        })
        .unwrap_or_default()
}

/// Processes whose command line contains `needle`.
pub fn processes_with(needle: &str) -> Vec<i32> {
    all_pids()
        .into_iter()
        .filter(|pid| {
            fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| String::from_utf8_lossy(&c).contains(needle))
                .unwrap_or(false)
        })
        .filter(|&pid| pid as u32 != std::process::id())
        .collect()
}

/// Processes whose executable lies under `dir`.
pub fn processes_running_from(dir: &Path) -> Vec<i32> {
    all_pids()
        .into_iter()
        .filter(|pid| fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|p| p.starts_with(dir)))
        .collect()
}

/// A unique string for markers and secrets.
pub fn nonce() -> String {
    format!(
        "{}x{}x{}",
        std::process::id(),
        next_id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0)
    )
}

/// A sleeping process of `who`, to see whether a run can kill it.
pub struct Canary(std::process::Child);

impl Canary {
    pub fn start(who: As) -> Canary {
        let mut cmd = Command::new("sleep");
        cmd.arg("300");
        if who == As::Nobody {
            cmd.uid(NOBODY).gid(NOBODY);
        }
        Canary(cmd.spawn().expect("canary"))
    }

    pub fn pid(&self) -> u32 {
        self.0.id()
    }

    pub fn alive(&mut self) -> bool {
        matches!(self.0.try_wait(), Ok(None))
    }

    /// Whether the canary has ended or ends within `patience`. A signal
    /// sent to it takes effect when the kernel next runs it, which on a
    /// busy machine may be after the judge has already returned; waiting
    /// is not a timing assertion, only a bound on the wait.
    pub fn ends_within(&mut self, patience: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + patience;
        loop {
            if !self.alive() {
                return true;
            }
            if std::time::Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for Canary {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Writes to a file, for secrets the runs must not see.
pub fn secret_file(path: &Path, text: &str) {
    let mut f = fs::File::create(path).expect("secret");
    f.write_all(text.as_bytes()).expect("secret");
}

/// Who judges in the `user_` tests: `nobody` when the tests run as root,
/// else `None` (the test is skipped, saying `note`). Under `CI=true` the
/// unprivileged mode must be tested, so there a skip is a failure.
pub fn nobody(note: &str) -> Option<As> {
    if is_root() {
        Some(As::Nobody)
    } else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but the tests as `nobody` cannot run: they need root"
        );
        eprintln!("not root: {note}");
        None
    }
}

/// The project's files before an attack: every path outside the cache with
/// its mode, owner, size, modification time and (small files) content, and
/// the cache's files with their mode and content (the judge itself adds to
/// the cache, so only what was there is compared).
#[derive(PartialEq, Eq, Debug)]
pub struct Snapshot(BTreeMap<PathBuf, Entry>);

/// Mode, owner, size, modification time and (small files) content.
pub type Entry = (u32, u32, u64, i64, Option<Vec<u8>>);

impl Snapshot {
    pub fn take(p: &Project) -> Snapshot {
        let cache = p.path("cache");
        let mut files = BTreeMap::new();
        for e in walkdir::WalkDir::new(p.dir.path())
            .into_iter()
            .filter_map(Result::ok)
        {
            let Ok(m) = e.path().symlink_metadata() else {
                continue;
            };
            let in_cache = e.path().starts_with(&cache);
            let content = (m.is_file() && m.len() < (1 << 20))
                .then(|| fs::read(e.path()).unwrap_or_default());
            let mtime = if in_cache || m.is_dir() { 0 } else { m.mtime() };
            files.insert(
                e.path().to_path_buf(),
                (m.mode(), m.uid(), m.len(), mtime, content),
            );
        }
        Snapshot(files)
    }

    /// Everything that was there is as it was; nothing new outside the cache.
    pub fn assert_unchanged(&self, p: &Project, what: &str) {
        let now = Snapshot::take(p);
        let cache = p.path("cache");
        let mut changed = Vec::new();
        for (path, before) in &self.0 {
            match now.0.get(path) {
                None => changed.push(format!("{} vanished", path.display())),
                Some(after) => {
                    // The judge's own folders may gain `o+x` (see the sandbox's view/),
                    // and the cache folder is closed to others (0700, see
                    // cache/trust.rs); directories' sizes follow their
                    // entries.
                    let dir = before.0 & 0o170000 == 0o040000;
                    let (b, a) = if *path == cache {
                        (
                            (before.0 & 0o170700, before.1),
                            (after.0 & 0o170700, after.1),
                        )
                    } else if dir {
                        ((before.0 & !0o001, before.1), (after.0 & !0o001, after.1))
                    } else {
                        ((before.0, before.1), (after.0, after.1))
                    };
                    if b != a
                        || (!dir && (before.2, before.3, &before.4) != (after.2, after.3, &after.4))
                    {
                        changed.push(format!("{} changed", path.display()));
                    }
                }
            }
        }
        for path in now.0.keys() {
            if !self.0.contains_key(path) && !path.starts_with(&cache) {
                changed.push(format!("{} appeared", path.display()));
            }
        }
        assert!(changed.is_empty(), "{what}: {changed:?}");
    }
}
