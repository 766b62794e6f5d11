//! Judges running at once on one machine run their programs as uids of
//! their own: per-uid limits (`RLIMIT_NPROC`) of one judge's runs cannot
//! be used up by another judge's. Each judge here is a real `grundy`
//! process in a cage of its own (tests/hostile/harness.rs).

#[path = "hostile/harness.rs"]
mod harness;

use std::fs;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use harness::{As, Cage, Project, SERIAL, verdict};

/// The first run uid and the size of the block a judge claims (see
/// crates/sandbox/src/sandbox/slot.rs).
const RUN_ID_BASE: u32 = 1_999_000_000;
const BLOCK: u32 = 64;

/// How long a test waits for something it needs before calling the judge
/// hung: a bound on a wait, not a measurement.
const PATIENCE: Duration = Duration::from_secs(180);

/// Whether the test can run: run uids are a root-only mechanism. Under
/// CI a test that cannot run fails instead of passing silently.
fn runnable() -> bool {
    if harness::is_root() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "run uids need root, and CI must run this test as root"
    );
    false
}

/// A judge started in the background, in its cage, stopped (SIGTERM) when
/// dropped; the cage then kills whatever is left.
struct Background {
    child: Child,
    _cage: Cage,
}

impl Background {
    fn start(p: &Project, problem: &str, sub: &Path) -> Background {
        let mut cmd = p.grundy();
        cmd.arg("judge")
            .arg(problem)
            .arg(sub)
            .arg("--json")
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", p.path("home"))
            .current_dir(p.dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0);
        let cage = Cage::new(As::Me).expect("cage");
        cage.apply(&mut cmd);
        let child = cmd.spawn().expect("spawn grundy");
        Background { child, _cage: cage }
    }

    fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + PATIENCE;
        while self.running() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A field of /proc/<pid>/status (its first number).
fn status_field(pid: i32, field: &str) -> Option<u32> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The uid and the thread count of the processes of the program that a
/// judge with cache `cache` runs now (its executable lies in the cache).
fn run_of(cache: &Path) -> Vec<(u32, u32)> {
    harness::processes_running_from(cache)
        .into_iter()
        .filter_map(|pid| Some((status_field(pid, "Uid:")?, status_field(pid, "Threads:")?)))
        .collect()
}

/// Waits until `f` gives something, or panics naming `what`.
fn wait_for<T>(what: &str, judge: &mut Background, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(judge.running(), "the judge ended before {what}");
        assert!(Instant::now() < deadline, "no {what} after {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The limits of a program that waits to be stopped: far more time than
/// the test needs, so the judges overlap for as long as the test looks.
const LIMITS_LONG: &str = "limits:\n  time: 300s\n  memory: 64MiB\n  output: 8MiB";

fn block_of(uid: u32) -> u32 {
    assert!(
        (RUN_ID_BASE..RUN_ID_BASE + 1024).contains(&uid),
        "uid {uid} is not a run uid"
    );
    (uid - RUN_ID_BASE) / BLOCK
}

/// Two judges alive at once run their programs as uids of two different
/// blocks (looked at in /proc while both programs run).
#[test]
fn two_judges_run_programs_under_disjoint_uid_blocks() {
    if !runnable() {
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (a, b) = (Project::new(As::Me), Project::new(As::Me));
    let mut uids = Vec::new();
    let mut judges = Vec::new();
    for p in [&a, &b] {
        p.problem("p", "token\n", LIMITS_LONG);
        let sub = p.submission("idle_forever.c");
        let mut j = Background::start(p, "p", &sub);
        let cache = p.path("cache");
        let uid = wait_for("program running", &mut j, || {
            run_of(&cache).first().map(|&(uid, _)| uid)
        });
        uids.push(uid);
        judges.push(j);
    }
    // Both programs ran while both judges were alive.
    for j in &mut judges {
        assert!(j.running(), "a judge ended before the other's program ran");
    }
    assert_ne!(
        block_of(uids[0]),
        block_of(uids[1]),
        "two judges at once share run uids: {uids:?}"
    );
}

/// A bomb that holds every task its uid may have, under one judge, does
/// not stop a second judge on the same machine: its correct program, which
/// needs a task more than its own, compiles, runs and is AC.
#[test]
fn a_task_bomb_under_one_judge_leaves_another_judge_ac() {
    if !runnable() {
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let hostile = Project::new(As::Me);
    hostile.problem("p", "token\n", LIMITS_LONG);
    let bomb = hostile.submission("task_hog.c");
    let mut bomber = Background::start(&hostile, "p", &bomb);
    let cache = hostile.path("cache");
    // The bomb at full strength: it has taken (nearly) every task a run
    // may have, and stopped, so the uid it runs as has none left.
    let mut last = 0;
    wait_for("bomb at full strength", &mut bomber, || {
        let threads: u32 = run_of(&cache).iter().map(|&(_, t)| t).sum();
        let full = threads >= 240 && threads == last;
        last = threads;
        full.then_some(())
    });

    let honest = Project::new(As::Me);
    honest.problem(
        "p",
        "token\n",
        "limits:\n  time: 10s\n  memory: 64MiB\n  output: 8MiB",
    );
    let sub = honest.submission("fork_answer.c");
    let held: u32 = run_of(&cache).iter().map(|&(_, t)| t).sum();
    let (r, stderr, cage) = honest.judge_caged("p", &sub, &[]);
    drop(cage);
    // The bomb was still there all along (its judge waits for it).
    assert!(bomber.running(), "the bomb's judge ended too soon");
    assert!(!run_of(&cache).is_empty(), "the bomb ended too soon");
    assert_eq!(verdict(&r), "AC", "bomb of {held} tasks: {r}\n{stderr}");
}
