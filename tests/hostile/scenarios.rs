//! The hostile corpus as scenarios, each run by `tests/sandbox.rs` (as the
//! test's user, root in CI) and `tests/sandbox_user.rs` (as `nobody`).
//! Each one states the verdict the program must get and checks from the
//! outside that nothing escaped.

#![allow(dead_code)]

use std::fs;
use std::net::{TcpListener, UdpSocket};
use std::path::PathBuf;
use std::time::Instant;

use super::harness::*;

const LIMITS_SMALL: &str = "limits:\n  time: 1s\n  memory: 64MiB\n  output: 8MiB";
const LIMITS_DEFAULT: &str = "limits:\n  time: 2s\n  memory: 256MiB";

fn input(token: &str, lines: &[String]) -> String {
    let mut s = format!("{token}\n");
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// Judges tests/hostile/`program` on a one-sample problem.
fn run(
    who: As,
    program: &str,
    lines: &[String],
    limits: &str,
    extra: &[&str],
) -> (serde_json::Value, Project) {
    let p = Project::new(who);
    p.problem("p", &input(&format!("token-{}", nonce()), lines), limits);
    let sub = p.submission(program);
    let (r, stderr) = p.judge("p", &sub, extra);
    assert!(r.is_object(), "no result: {stderr}");
    (r, p)
}

fn show(r: &serde_json::Value) -> String {
    serde_json::to_string_pretty(r).unwrap_or_default()
}

/// Files of the judge a run must not read: another problem's answers and
/// inputs in the cache, the cache itself, problems, references, other
/// submissions, /tmp and $HOME. Returns the project, the paths and the
/// secrets written in them; the file in /tmp goes with the returned guard.
fn secrets(who: As) -> (Project, Vec<String>, Vec<String>, Removed) {
    let p = Project::new(who);
    let n = nonce();
    let answer = format!("ANSWER-SECRET-{n}");
    p.problem("other", &format!("{answer}\n"), "");
    let benign = p.write("subs/other.c", &source("reference.c"));
    let (r, _) = p.judge("other", &benign, &[]);
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
    let mut paths: Vec<PathBuf> = walkdir::WalkDir::new(p.path("cache"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.path()
                .extension()
                .is_some_and(|x| x == "ans" || x == "in")
        })
        .map(|e| e.path().to_path_buf())
        .collect();
    assert!(
        paths
            .iter()
            .any(|q| q.extension().is_some_and(|x| x == "ans")),
        "the cache holds no answer to steal"
    );
    let tmp = std::env::temp_dir().join(format!("grundy-secret-{n}"));
    let home_secret = format!("HOME-SECRET-{n}");
    let tmp_secret = format!("TMP-SECRET-{n}");
    secret_file(&tmp, &tmp_secret);
    let guard = Removed(tmp.clone());
    secret_file(&p.path("home/secret.txt"), &home_secret);
    paths.extend([
        tmp,
        p.path("home/secret.txt"),
        p.path("home"),
        p.path("cache"),
        p.path("cache/answers"),
        p.path("problems/other/problem.yaml"),
        p.path("problems/other/reference.c"),
        p.path("problems"),
        p.path("subs/other.c"),
        std::env::temp_dir(),
        PathBuf::from("/root"),
        PathBuf::from("/home"),
        PathBuf::from("/proc/1/environ"),
        PathBuf::from("../stderr"),
    ]);
    let paths = paths.iter().map(|q| q.display().to_string()).collect();
    (p, paths, vec![answer, home_secret, tmp_secret], guard)
}

/// A file removed when dropped.
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// Reads nothing outside its folder but the runtime.
pub fn reads_nothing_of_the_judge(who: As) {
    let (p, paths, secrets, _tmp) = secrets(who);
    p.problem("p", &input("token", &paths), LIMITS_DEFAULT);
    let sub = p.submission("read_secrets.c");
    let (r, _) = p.judge("p", &sub, &[]);
    let text = show(&r);
    assert_eq!(
        verdict(&r),
        "AC",
        "the program read something it must not: {text}"
    );
    for s in &secrets {
        assert!(!text.contains(s.as_str()), "secret {s} leaked: {text}");
    }
}

/// `#include "<answers>"` does not bring the answers into a CE log.
pub fn compiler_cannot_include_answers(who: As) {
    let (p, paths, secrets, _tmp) = secrets(who);
    let answers = paths
        .iter()
        .find(|q| q.ends_with(".ans"))
        .expect("an answer file");
    let text = fs::read_to_string(std::path::Path::new(HOSTILE).join("include_answers.c.in"))
        .expect("template")
        .replace("@PATH@", answers);
    let sub = p.write("subs/include.c", &text);
    p.problem("p", "token\n", LIMITS_DEFAULT);
    let (r, _) = p.judge("p", &sub, &[]);
    let shown = show(&r);
    assert_eq!(verdict(&r), "CE", "{shown}");
    assert!(
        !shown.contains(secrets[0].as_str()),
        "the answer leaked into the CE log: {shown}"
    );
}

/// Writes nowhere but its folder.
pub fn writes_nowhere_else(who: As) {
    let n = nonce();
    let p0 = Project::new(who);
    let targets = [
        std::env::temp_dir().join(format!("grundy-pwned-{n}")),
        PathBuf::from(format!("/dev/shm/grundy-pwned-{n}")),
        p0.path("home/pwned"),
        p0.path("cache/pwned"),
        p0.path("problems/pwned"),
        p0.path("pwned"),
    ];
    let mut lines: Vec<String> = targets.iter().map(|t| t.display().to_string()).collect();
    lines.push("../pwned".into());
    p0.problem("p", &input("token", &lines), LIMITS_DEFAULT);
    let sub = p0.submission("write_escape.c");
    let (r, _) = p0.judge("p", &sub, &[]);
    let existing: Vec<_> = targets.iter().filter(|t| t.exists()).collect();
    for t in &existing {
        let _ = fs::remove_file(t);
    }
    assert!(existing.is_empty(), "files appeared: {existing:?}");
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
}

/// The same program without the sandbox does write to /tmp: the check
/// above can fail.
pub fn control_writes_without_sandbox(who: As) {
    let n = nonce();
    let target = std::env::temp_dir().join(format!("grundy-control-{n}"));
    let (r, _) = run(
        who,
        "write_escape.c",
        &[target.display().to_string()],
        LIMITS_DEFAULT,
        &["--sandbox", "off"],
    );
    let appeared = target.exists();
    let _ = fs::remove_file(&target);
    assert!(
        appeared,
        "without the sandbox the write should succeed: {}",
        show(&r)
    );
    assert_eq!(verdict(&r), "WA");
    assert!(
        r["isolation"]
            .as_str()
            .unwrap_or("")
            .contains("sandbox off"),
        "{}",
        show(&r)
    );
}

/// No TCP or UDP, not even to the loopback interface.
pub fn no_network(who: As, sandbox: bool) {
    let tcp = TcpListener::bind("127.0.0.1:0").expect("listen");
    tcp.set_nonblocking(true).expect("nonblocking");
    let udp = UdpSocket::bind("127.0.0.1:0").expect("udp");
    udp.set_nonblocking(true).expect("nonblocking");
    let lines = [
        tcp.local_addr().expect("addr").port().to_string(),
        udp.local_addr().expect("addr").port().to_string(),
    ];
    let extra: &[&str] = if sandbox { &[] } else { &["--sandbox", "off"] };
    let (r, _) = run(who, "tcp_loopback.c", &lines, LIMITS_DEFAULT, extra);
    let connected = tcp.accept().is_ok();
    let mut buf = [0u8; 16];
    let datagram = udp.recv(&mut buf).is_ok();
    if sandbox {
        assert!(!connected, "the listener saw a connection: {}", show(&r));
        assert!(!datagram, "a datagram arrived: {}", show(&r));
        assert_eq!(verdict(&r), "AC", "{}", show(&r));
    } else {
        assert!(
            connected,
            "without the sandbox the connection should arrive: {}",
            show(&r)
        );
    }
}

/// None of the judge's environment.
pub fn no_judge_environment(who: As) {
    let (r, _) = run(who, "env_probe.c", &[], LIMITS_DEFAULT, &[]);
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
    assert!(
        !show(&r).contains("judge-secret-environment"),
        "{}",
        show(&r)
    );
}

/// `kill(-1, SIGKILL)` and friends hit nothing outside the run.
pub fn kills_nothing_outside(who: As) {
    let mut canary = Canary::start(who);
    let lines = [canary.pid().to_string(), std::process::id().to_string()];
    let (r, _) = run(who, "kill_all.c", &lines, LIMITS_DEFAULT, &[]);
    assert!(
        canary.alive(),
        "the run killed a process of the judge's user: {}",
        show(&r)
    );
    // kill(-1) spares the caller: the program goes on and answers.
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
}

/// A detached daemon (double fork + setsid) does not outlive the run.
pub fn leaves_no_daemon(who: As) {
    let marker = format!("grundy-daemon-{}", nonce());
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = Project::new(who);
    p.problem(
        "p",
        &input("token", std::slice::from_ref(&marker)),
        LIMITS_DEFAULT,
    );
    let sub = p.submission("orphan_daemon.c");
    // Looked for before the cage is dropped (which would kill a survivor).
    let (r, _, cage) = p.judge_caged("p", &sub, &[]);
    // A killed daemon ends when the kernel next runs it: wait for that, as
    // long as a loaded machine needs (one that was not killed sleeps an
    // hour, so it is still there).
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    let mut left = processes_with(&marker);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        left = processes_with(&marker);
    }
    drop(cage);
    for &pid in &left {
        // SAFETY: killing what the test itself caused to run.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    assert!(
        left.is_empty(),
        "daemon processes survived the run: {left:?}"
    );
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
}

/// A fork bomb ends as TLE, RE or MLE, and nothing of it is left.
pub fn fork_bomb_is_contained(who: As) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let before = all_pids().len();
    let p = Project::new(who);
    p.problem("p", "token\n", LIMITS_SMALL);
    let sub = p.submission("fork_bomb.c");
    // Looked for before the cage is dropped (which would kill a survivor).
    let (r, _, cage) = p.judge_caged("p", &sub, &[]);
    let left = processes_running_from(&p.path("cache"));
    drop(cage);
    let v = verdict(&r);
    // 256 tasks of kernel memory come close to a 64 MiB limit: the bomb
    // may end on memory (its group full) as well as on time.
    assert!(v == "TLE" || v == "RE" || v == "MLE", "{}", show(&r));
    assert!(left.is_empty(), "fork bomb processes survived: {left:?}");
    let after = all_pids().len();
    assert!(
        after < before + 50,
        "process count went from {before} to {after}"
    );
}

/// Filling the disk stops at the output limit.
pub fn disk_fill_is_bounded(who: As) {
    // The verdict is not about time: a wide time limit keeps a slow
    // machine from turning the OLE into a TLE. (That the judge ends at all
    // is what `judge_caged`'s hang detector checks.)
    let limits = "limits:\n  time: 10s\n  memory: 64MiB\n  output: 8MiB";
    let (r, _) = run(who, "disk_fill.c", &[], limits, &[]);
    let v = verdict(&r);
    assert!(v == "OLE" || v == "RE", "{}", show(&r));
}

/// A stderr flood without end is judged on time alone (stderr is never
/// a verdict), and the report keeps only its head.
pub fn stderr_flood_is_bounded(who: As) {
    let (r, _) = run(who, "stderr_flood.c", &[], LIMITS_SMALL, &[]);
    assert_eq!(verdict(&r), "TLE", "{}", show(&r));
    let stderr = r["tests"][0]["stderr"].as_str().unwrap_or("");
    assert!(stderr.starts_with("eeee"), "{}", show(&r));
    assert!(
        stderr.len() <= 8192,
        "stderr in the report is {} bytes",
        stderr.len()
    );
}

/// 2 GiB written to stderr at full speed, then the right answer, under an
/// 8 MiB output limit: AC (DOMjudge's and Kattis' behaviour). `extra`
/// picks the sandbox mode.
pub fn stderr_gigabytes_then_answer_is_ac(who: As, extra: &[&str]) {
    // Copying 2 GiB into a pipe takes the program about a second of CPU:
    // the time limit leaves room for a loaded machine.
    let limits = "limits:\n  time: 20s\n  memory: 64MiB\n  output: 8MiB";
    let (r, _) = run(who, "stderr_then_answer.c", &[], limits, extra);
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
}

/// Four busy threads: TLE, with the CPU time of all of them counted.
pub fn threads_count_towards_cpu(who: As) {
    let (r, _) = run(who, "threads_cpu.c", &[], LIMITS_SMALL, &[]);
    assert_eq!(verdict(&r), "TLE", "{}", show(&r));
    let t = &r["tests"][0];
    let message = t["message"].as_str().unwrap_or("");
    // On a machine so loaded that four threads cannot get 1 s of CPU in the
    // wall limit, the wall limit ends the run: still TLE, nothing to count.
    if message.starts_with("CPU time over the limit") {
        assert!(
            t["time_ms"].as_f64().unwrap_or(0.0) >= 1000.0,
            "{}",
            show(&r)
        );
    } else {
        assert!(message.starts_with("wall time over"), "{}", show(&r));
    }
}

/// Memory grown a MiB at a time ends as MLE.
pub fn memory_growth_is_mle(who: As) {
    let (r, _) = run(who, "mem_steps.c", &[], LIMITS_SMALL, &[]);
    assert_eq!(verdict(&r), "MLE", "{}", show(&r));
}

/// A program that reserves 1 GiB and touches it all is MLE under a 64 MiB
/// limit, and its peak is reported at the limit; one that reserves 1 GiB
/// and touches 8 MiB passes. With a memory group the group judges what is
/// touched; without one, the address-space cap makes both `malloc`s fail
/// (RE), and the isolation line says that cap is in force.
pub fn memory_is_what_is_touched(who: As) {
    let (touched, _) = run(who, "mem_touch_1g.c", &[], LIMITS_SMALL, &[]);
    let (lazy, _) = run(who, "mem_lazy_1g.c", &[], LIMITS_SMALL, &[]);
    let iso = lazy["isolation"].as_str().unwrap_or("");
    if iso.contains("cgroups") {
        assert!(!iso.contains("address-space cap"), "{iso}");
        assert_eq!(verdict(&touched), "MLE", "{}", show(&touched));
        assert_eq!(verdict(&lazy), "AC", "{}", show(&lazy));
        let kib = lazy["tests"][0]["memory_kib"].as_u64().unwrap_or(u64::MAX);
        assert!(kib < 64 * 1024, "{}", show(&lazy));
    } else {
        assert!(iso.contains("address-space cap"), "{iso}");
        assert_eq!(verdict(&touched), "RE", "{}", show(&touched));
        assert_eq!(verdict(&lazy), "RE", "{}", show(&lazy));
    }
}

/// Many small processes that overflow the run's memory group: the OOM
/// killer takes one of them, never the judge (whose helpers in the group
/// share its memory and, being larger, would otherwise be its first pick).
/// Without a group (an ordinary user), the watcher's sum of the processes'
/// memory sees them all just the same.
pub fn small_processes_overflowing_memory(who: As) {
    let (r, _) = run(who, "many_small.c", &[], LIMITS_SMALL, &[]);
    // They sleep until stopped: only the memory limit can end the run
    // before the wall limit, whatever the machine's load.
    assert_eq!(verdict(&r), "MLE", "{}", show(&r));
}

/// Eight children of 120 MiB each, every one far below the per-process
/// cap of 256 MiB, held while the parent (which answered) waits: MLE, and
/// the reported peak is the sum, not one process's.
pub fn memory_held_by_many_children_is_mle(who: As) {
    let lines = ["8".to_string(), "120".to_string()];
    let (r, _) = run(who, "mem_children.c", &lines, LIMITS_DEFAULT, &[]);
    assert_eq!(verdict(&r), "MLE", "{}", show(&r));
    let kib = r["tests"][0]["memory_kib"].as_u64().unwrap_or(0);
    assert!(kib > 256 * 1024, "peak {kib} KiB: {}", show(&r));
}

/// A correct program with a worker pool whose processes share the pages
/// their parent touched before forking: those count once, and the run,
/// about 40 MiB in all under 64 MiB, is AC.
pub fn a_worker_pool_within_the_limit_is_ac(who: As) {
    let (r, _) = run(who, "mem_pool.c", &[], LIMITS_SMALL, &[]);
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
}

/// A running program is the OOM killer's first choice (`oom_score_adj`
/// 1000), and the judge keeps its own score: when the machine runs short,
/// a submission dies, not the judge whose memory `init` shares.
pub fn runs_go_first_to_the_oom_killer(who: As) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = Project::new(who);
    p.problem("p", &input("token", &[]), LIMITS_DEFAULT);
    let sub = p.submission("sleeper.c");
    let score = |pid: i32| {
        std::fs::read_to_string(format!("/proc/{pid}/oom_score_adj"))
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    };
    let (seen, judge_scores, r) = std::thread::scope(|s| {
        let judged = s.spawn(|| p.judge_caged("p", &sub, &[]));
        let deadline = Instant::now() + std::time::Duration::from_secs(60);
        let mut seen = Vec::new();
        let mut judge_scores = Vec::new();
        while seen.is_empty() && Instant::now() < deadline && !judged.is_finished() {
            seen = processes_running_from(&p.path("cache"))
                .into_iter()
                .map(score)
                .collect();
            judge_scores = processes_running_from(&p.path("grundy"))
                .into_iter()
                .map(score)
                .collect();
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let (r, _, cage) = judged.join().expect("judge thread");
        drop(cage);
        (seen, judge_scores, r)
    });
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
    assert!(!seen.is_empty(), "the running program was never seen");
    assert!(seen.iter().all(|s| s == "1000"), "program scores {seen:?}");
    let own = score(std::process::id() as i32);
    assert!(
        judge_scores.iter().all(|s| *s == own),
        "judge scores {judge_scores:?}, the test's {own}"
    );
}

/// Legitimate programs still work.
pub fn legitimate_programs_pass(who: As, java_and_python: bool) {
    for program in ["deep_recursion.c", "mem_200.c"] {
        let (r, _) = run(who, program, &[], LIMITS_DEFAULT, &[]);
        assert_eq!(verdict(&r), "AC", "{program}: {}", show(&r));
    }
    if java_and_python {
        for program in ["Threads.java", "echo.py"] {
            let (r, _) = run(who, program, &[], LIMITS_DEFAULT, &[]);
            assert_eq!(verdict(&r), "AC", "{program}: {}", show(&r));
        }
    }
}

/// The report says which isolation was in force.
pub fn isolation_is_reported(who: As, expected: &[&str]) {
    let (r, _) = run(who, "reference.c", &[], LIMITS_DEFAULT, &[]);
    assert_eq!(verdict(&r), "AC", "{}", show(&r));
    let iso = r["isolation"].as_str().unwrap_or("");
    for e in expected {
        assert!(iso.contains(e), "isolation `{iso}` lacks `{e}`");
    }
}
