//! Two judges in different pid namespaces, both pid 1 of their own, in the
//! same cgroup, at once: each run slot's groups must be their own. With
//! groups named after the pid alone, the second judge joined the first
//! one's groups: their runs' memory was counted together (an MLE for two
//! programs that each fit), and limits set for one applied to the other.

#[path = "hostile/harness.rs"]
mod harness;

use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use harness::{As, Cage, Project, SERIAL, processes_running_from, verdict};

/// Whether this test can run here; under `CI=true` it must.
fn can_run() -> bool {
    let unshare = Command::new("unshare")
        .args(["--pid", "--fork", "--mount-proc", "true"])
        .status()
        .is_ok_and(|s| s.success());
    let ok = harness::is_root() && unshare;
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test cannot run: it needs root and `unshare --pid`"
        );
        eprintln!("skipped: needs root and `unshare --pid`");
    }
    ok
}

fn judge_in_pid_namespace(p: &Project, sub: &std::path::Path, cage: &Cage) -> std::process::Child {
    let mut cmd = Command::new("unshare");
    cmd.args(["--pid", "--fork", "--mount-proc", "--kill-child"])
        .arg(p.path("grundy"))
        .arg("--problems")
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(p.path("cache"))
        .arg("judge")
        .arg("p")
        .arg(sub)
        .arg("--json")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", p.path("home"))
        .current_dir(p.dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cage.apply(&mut cmd);
    cmd.spawn().expect("unshare")
}

fn result(child: std::process::Child) -> serde_json::Value {
    let out = child.wait_with_output().expect("judge");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): {stdout} {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    json["results"][0].clone()
}

#[test]
fn judges_in_other_pid_namespaces_keep_their_own_groups() {
    if !can_run() {
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let slow = Project::new(As::Me);
    slow.problem("p", "token\n", "limits:\n  time: 40s\n  memory: 64MiB");
    // Holds 40 MiB (of 64) and waits until this test wakes it, once the
    // other judge has started, run and exited: however slow the machine,
    // the two runs overlap. It waits at most 110 s, within the wall-clock
    // limit of 120 s (three times the CPU limit): a loaded machine once
    // took over 25 s for the other judge.
    let sleeper = slow.write("subs/slow.c", &holder(110));
    let quick = Project::new(As::Me);
    quick.problem("p", "token\n", "limits:\n  time: 5s\n  memory: 64MiB");
    let reference = quick.write("subs/quick.c", &holder(0));
    // One cage for both: their groups are made side by side in it.
    let cage = Cage::new(As::Me).expect("cage");
    let groups_before = grundy_groups(&cage);
    // Compiled and cached now, so that its judge is quick below.
    let warm = result(judge_in_pid_namespace(&quick, &reference, &cage));
    assert_eq!(verdict(&warm), "AC", "{warm}");
    let a = judge_in_pid_namespace(&slow, &sleeper, &cage);
    // The second judge starts, runs and exits while the first one's
    // program is running.
    let deadline = Instant::now() + Duration::from_secs(90);
    // The sleeper itself, not the reference computing the answer first
    // (also a program of that cache): under load the second judge could
    // run and exit between the two, and the test saw no sleeper then.
    while holders(&slow.path("cache")).is_empty() {
        assert!(Instant::now() < deadline, "the sleeper never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let b = result(judge_in_pid_namespace(&quick, &reference, &cage));
    // The first judge's run outlived the second judge.
    let sleepers = holders(&slow.path("cache"));
    let running = !sleepers.is_empty();
    for pid in sleepers {
        wake(pid);
    }
    let a = result(a);
    assert!(running, "the other judge's run ended this one: {a}");
    for r in [&a, &b] {
        let iso = r["isolation"].as_str().unwrap_or("");
        assert!(iso.contains("cgroups"), "no groups to share: {r}");
    }
    assert_eq!(verdict(&b), "AC", "{b}");
    assert_eq!(
        verdict(&a),
        "AC",
        "the other judge's run ended this one: {a}"
    );
    assert!(processes_running_from(&slow.path("cache")).is_empty());
    // Each judge left its groups empty on exit, for the next judge holding
    // its block of run uids.
    let left: Vec<String> = grundy_groups(&cage)
        .into_iter()
        .filter(|g| !groups_before.contains(g))
        .collect();
    assert!(!left.is_empty(), "the judges' groups are kept for reuse");
    for g in &left {
        assert!(g.starts_with("grundy-b"), "named after a block: {g}");
    }
    assert_eq!(processes_in_groups(&cage), Vec::<i32>::new());
}

/// A judge checks that it may have cgroups by making its first run slot's
/// groups (or finding them), and leaves them empty when it exits, whether
/// it ran something or nothing at all (`gen` of a problem's written
/// tests); the next judge holding the same block of run uids takes them
/// over instead of making its own, so judging after judging adds none.
#[test]
fn a_judge_leaves_its_groups_empty_and_the_next_one_reuses_them() {
    let Some(j) = Private::new() else { return };
    j.p.write(
        "problems/q/problem.yaml",
        "id: q\ntitle: Written\ngroups:\n  - name: main\n    tests:\n      \
         - {input: \"token\\n\", answer: \"token\\n\"}\n",
    );
    let out = j.p.path("tests");
    let generated = j.grundy(&[
        "gen".as_ref(),
        "q".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    assert!(out.join("main-1.in").is_file(), "gen wrote the test");
    let after_gen = j.groups();
    assert!(!after_gen.is_empty(), "the first slot's groups are kept");
    assert_eq!(processes_in_groups(&j.cage), Vec::<i32>::new(), "after gen");
    j.judge_ac();
    let after_first = j.groups();
    for g in &after_gen {
        assert!(
            after_first.contains(g),
            "gen's groups were reused: {after_first:?}"
        );
    }
    assert_eq!(
        processes_in_groups(&j.cage),
        Vec::<i32>::new(),
        "after judge"
    );
    // A second judge adds none and makes none anew (a group made again
    // would have another inode).
    j.judge_ac();
    assert_eq!(j.groups(), after_first, "a second judge made groups");
    assert_eq!(processes_in_groups(&j.cage), Vec::<i32>::new());
}

/// A process left in a slot's groups (by a judge killed with `-9` while
/// its run was going) is killed by the next judge that takes the groups
/// over, before its first run there.
#[test]
fn a_process_left_in_reused_groups_is_killed_by_the_next_judge() {
    let Some(j) = Private::new() else { return };
    j.judge_ac();
    let groups = j.groups();
    assert!(!groups.is_empty(), "the judge's groups are kept");
    // Left in every group of the judge's slots, as a run would be.
    let mut cmd = Command::new("sleep");
    cmd.arg("1000").stdin(Stdio::null());
    j.cage.apply(&mut cmd);
    let mut left = cmd.spawn().expect("sleep");
    for (_, dir) in &groups {
        std::fs::write(dir.join("cgroup.procs"), left.id().to_string()).expect("join group");
    }
    assert_eq!(processes_in_groups(&j.cage).len(), 1);
    j.judge_ac();
    let status = left.try_wait().expect("wait");
    if status.is_none() {
        let _ = left.kill();
        let _ = left.wait();
    }
    let status = status.expect("the leftover still runs after the next judge");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL)
    );
    assert_eq!(j.groups(), groups, "the groups were taken over");
}

/// The groups of a block of run uids nobody holds (its judge was killed
/// and no judge has claimed it since) are emptied and removed by the next
/// judge, which holds another block, and so are the block's groups in
/// other cgroups that the block's note names: the groups on a machine stay
/// bounded by the blocks in use.
#[test]
fn groups_of_a_block_nobody_holds_are_removed() {
    let Some(j) = Private::new() else { return };
    let second = j.p.path("locks/1.lock");
    std::fs::File::create(&second).expect("lock file");
    let st = std::fs::metadata(&second).expect("stat");
    let name = format!("grundy-b{}-{}-0", st.dev(), st.ino());
    let mut cmd = Command::new("sleep");
    cmd.arg("1000").stdin(Stdio::null());
    j.cage.apply(&mut cmd);
    let mut left = cmd.spawn().expect("sleep");
    let dirs: Vec<_> = j.cage.dirs().iter().map(|d| d.join(&name)).collect();
    for d in &dirs {
        std::fs::create_dir(d).expect("group of block 1");
        std::fs::write(d.join("cgroup.procs"), left.id().to_string()).expect("join group");
    }
    // Its groups in other cgroups too, where its last holder's note (pids,
    // memory, cpuacct: no cpuacct group here) says it made them.
    let elsewhere = Cage::new(As::Me).expect("other cgroups");
    let mut note = Vec::new();
    for d in elsewhere.dirs() {
        std::fs::create_dir(d.join(&name)).expect("group of block 1 elsewhere");
        note.extend_from_slice(d.as_os_str().as_encoded_bytes());
        note.push(0);
    }
    note.push(0);
    std::fs::write(&second, &note).expect("note of block 1");
    j.judge_ac();
    for d in elsewhere.dirs() {
        assert!(!d.join(&name).exists(), "{} was not removed", d.display());
    }
    let status = left.try_wait().expect("wait");
    if status.is_none() {
        let _ = left.kill();
        let _ = left.wait();
    }
    assert!(status.is_some(), "the leftover of block 1 still runs");
    for d in &dirs {
        assert!(!d.exists(), "{} was not removed", d.display());
    }
}

/// A judge holding the block of run uids an earlier judge held, but
/// started in other cgroups (another CI job, another login session),
/// removes the groups the earlier judge left in its own: wherever judges
/// ran, the groups left on the machine stay bounded by the blocks in use,
/// and the earlier cgroups can be removed.
#[test]
fn a_judge_in_other_cgroups_removes_what_its_block_left_in_the_first() {
    let Some(mut j) = Private::new() else { return };
    j.judge_ac();
    assert!(!j.groups().is_empty(), "the first judge's groups are kept");
    let first = std::mem::replace(&mut j.cage, Cage::new(As::Me).expect("second cage"));
    j.judge_ac();
    let left: Vec<_> = grundy_groups(&first)
        .into_iter()
        .filter(|n| n.starts_with(&j.prefix))
        .collect();
    assert_eq!(left, Vec::<String>::new(), "left in the first cgroups");
    let second = j.groups();
    assert!(
        second.iter().any(|(_, d)| d
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(&j.prefix))),
        "the second judge's groups are in its own cgroups: {second:?}"
    );
}

/// Judges in a cage of cgroups with a private folder of run uid claims
/// bound on `/run/grundy/uids` (in a mount namespace of their own): they
/// hold its first block whatever judges elsewhere on the machine hold.
struct Private {
    p: Project,
    cage: Cage,
    sub: std::path::PathBuf,
    /// `grundy-b<dev>-<ino>-`: the names of the first block's groups.
    prefix: String,
    _serial: std::sync::MutexGuard<'static, ()>,
}

impl Private {
    fn new() -> Option<Private> {
        let unshare = Command::new("unshare")
            .args(["--mount", "true"])
            .status()
            .is_ok_and(|s| s.success());
        if !(harness::is_root() && unshare) {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true but this test cannot run: it needs root and `unshare --mount`"
            );
            eprintln!("skipped: needs root and `unshare --mount`");
            return None;
        }
        let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let p = Project::new(As::Me);
        p.problem("p", "token\n", "limits:\n  time: 5s\n  memory: 64MiB");
        let sub = p.write("subs/echo.c", &holder(0));
        let locks = p.path("locks");
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&locks)
            .expect("locks");
        let first = locks.join("0.lock");
        std::fs::File::create(&first).expect("lock file");
        let st = std::fs::metadata(&first).expect("stat");
        let prefix = format!("grundy-b{}-{}-", st.dev(), st.ino());
        let cage = Cage::new(As::Me).expect("cage");
        assert!(!cage.dirs().is_empty(), "a cage of cgroups as root");
        Some(Private {
            p,
            cage,
            sub,
            prefix,
            _serial: serial,
        })
    }

    fn grundy(&self, args: &[&std::ffi::OsStr]) -> std::process::Output {
        let mut cmd = Command::new("unshare");
        cmd.args(["--mount", "--propagation", "private", "sh", "-c"])
            .arg("mkdir -p /run/grundy/uids && mount --bind \"$0\" /run/grundy/uids && exec \"$@\"")
            .arg(self.p.path("locks"))
            .arg(self.p.path("grundy"))
            .arg("--problems")
            .arg(self.p.path("problems"))
            .arg("--cache")
            .arg(self.p.path("cache"))
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.p.path("home"))
            .current_dir(self.p.dir.path())
            .stdin(Stdio::null());
        self.cage.apply(&mut cmd);
        cmd.output().expect("grundy")
    }

    fn judge_ac(&self) {
        let judged = self.grundy(&[
            "judge".as_ref(),
            "p".as_ref(),
            self.sub.as_os_str(),
            "--json".as_ref(),
        ]);
        let json: serde_json::Value = serde_json::from_slice(&judged.stdout).unwrap_or_else(|e| {
            panic!("no JSON ({e}): {}", String::from_utf8_lossy(&judged.stderr))
        });
        let r = &json["results"][0];
        assert_eq!(verdict(r), "AC", "{r}");
        let iso = r["isolation"].as_str().unwrap_or("");
        assert!(iso.contains("cgroups"), "the runs had groups: {r}");
    }

    /// The judges' groups in the cage (pids and memory) with their inodes.
    fn groups(&self) -> Vec<(u64, std::path::PathBuf)> {
        let mut found: Vec<(u64, std::path::PathBuf)> = self
            .cage
            .dirs()
            .iter()
            .filter_map(|d| std::fs::read_dir(d).ok())
            .flatten()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("grundy-"))
            .map(|e| (e.metadata().map_or(0, |m| m.ino()), e.path()))
            .collect();
        found.sort();
        found
    }
}

impl Drop for Private {
    /// The cpuacct groups are not in the cage: removed here (they are
    /// empty, and no other judge uses this folder of claims).
    fn drop(&mut self) {
        let Some(base) = harness::own_cgroup("cpuacct") else {
            return;
        };
        for e in std::fs::read_dir(base).into_iter().flatten().flatten() {
            if e.file_name().to_string_lossy().starts_with(&self.prefix) {
                let _ = std::fs::remove_dir(e.path());
            }
        }
    }
}

/// The processes in the cage's grundy groups.
fn processes_in_groups(cage: &Cage) -> Vec<i32> {
    cage.dirs()
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("grundy-"))
        .filter_map(|e| std::fs::read_to_string(e.path().join("cgroup.procs")).ok())
        .flat_map(|l| {
            l.lines()
                .filter_map(|p| p.trim().parse().ok())
                .collect::<Vec<i32>>()
        })
        .collect::<std::collections::BTreeSet<i32>>()
        .into_iter()
        .collect()
}

/// A program that touches 40 MiB, waits up to `secs` or until SIGUSR1, and
/// answers: two of them fit their 64 MiB limits, not one group of 64 MiB
/// together.
fn holder(secs: u32) -> String {
    format!(
        "#include <signal.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n\
         static volatile sig_atomic_t woken;\n\
         static void wake(int s) {{ (void)s; woken = 1; }}\n\
         int main(void) {{ signal(SIGUSR1, wake);\n\
         char t[64]; if (!fgets(t, sizeof t, stdin)) return 1;\n\
         volatile char *p = malloc(40 << 20); if (!p) return 1;\n\
         for (int i = 0; i < (40 << 20); i += 4096) p[i] = 1;\n\
         for (int i = 0; i < {secs} * 10 && !woken; i++) usleep(100000);\n\
         fputs(t, stdout); return 0; }}\n"
    )
}

/// Whether process `pid` catches SIGUSR1: a holder past its `signal` call
/// (before then the signal would kill it); `None` once it is gone.
fn catches_usr1(pid: i32) -> Option<bool> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let caught = status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .unwrap_or(0);
    Some(caught & (1 << (libc::SIGUSR1 - 1)) != 0)
}

/// The holders (see [`holder`]) running from `cache`, ready to be woken.
fn holders(cache: &std::path::Path) -> Vec<i32> {
    processes_running_from(cache)
        .into_iter()
        .filter(|&pid| catches_usr1(pid) == Some(true))
        .collect()
}

/// Sends SIGUSR1 to a holder once it catches it (before then the signal
/// would kill it), so that it answers now.
fn wake(pid: i32) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        match catches_usr1(pid) {
            None => return,
            Some(true) => {
                // SAFETY: kill has no memory effects; a pid that is gone just fails.
                unsafe { libc::kill(pid, libc::SIGUSR1) };
                return;
            }
            Some(false) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

/// The names of the grundy groups in the cage's cgroups, sorted.
fn grundy_groups(cage: &Cage) -> Vec<String> {
    let mut names: Vec<String> = cage
        .dirs()
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("grundy-"))
        .collect();
    names.sort();
    names
}
