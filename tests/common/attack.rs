//! The red-team harness shared by `tests/red_team.rs` and
//! `tests/red_team_more.rs`: one hostile submission judged by the real
//! binary in a cage of its own (`tests/hostile/harness.rs`: a process and
//! memory cap around it), then every check an attack gets: the judge exits
//! with the code of its verdict, no file of the project changed (problems,
//! submissions, `$HOME`, the cached answers), nothing named after the attack
//! appeared in `/tmp`, `/dev/shm`, `/var/tmp` or anywhere in the project,
//! the cache's scratch folder is empty, and no process of the run is left.
//!
//! Both files include it by its path (`#[path]`) next to the harness, which
//! they include as `harness`; this file takes it from there.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use super::harness::{
    As, Cage, Project, SERIAL, Snapshot, nonce, output_within, processes_running_from,
    processes_with, source, verdict,
};

pub const LIMITS_SMALL: &str = "limits:\n  time: 1s\n  memory: 64MiB\n  output: 8MiB";
pub const LIMITS_DEFAULT: &str = "limits:\n  time: 2s\n  memory: 256MiB";
pub const NOT_ROOT: &str = "the unprivileged attacks are run as this user by the other tests";

/// The first descriptor number at which the judge inherits `Attack::inherit`.
pub const INHERITED_FD: i32 = 100;

/// A control runs programs as root with nothing around them: only then do
/// the attacks that need a permission get through.
pub fn control_possible() -> bool {
    if super::harness::is_root() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but the controls need root"
    );
    false
}

/// What one judge did, and what it left.
pub struct Judged {
    pub result: serde_json::Value,
    pub code: Option<i32>,
    pub stderr: String,
    /// Processes whose command line holds the attack's tag, seen before
    /// the cage killed them.
    pub marked: Vec<i32>,
}

impl Judged {
    pub fn verdict(&self) -> String {
        verdict(&self.result)
    }

    /// The verdict of each test, in order.
    pub fn verdicts(&self) -> Vec<String> {
        self.result["tests"]
            .as_array()
            .map(|t| {
                t.iter()
                    .map(|t| t["verdict"].as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn show(&self) -> String {
        format!(
            "exit {:?}, result {}, stderr {}",
            self.code,
            serde_json::to_string_pretty(&self.result).unwrap_or_default(),
            self.stderr
        )
    }

    /// The judge ended by itself, with the exit code of its verdict (0 for
    /// AC, 1 for any other verdict of the program).
    pub fn assert_exit_matches(&self) {
        let want = if self.verdict() == "AC" { 0 } else { 1 };
        assert_eq!(self.code, Some(want), "{}", self.show());
    }
}

/// Files whose name holds `tag` in the places a run could reach if it
/// escaped its folder, and anywhere in the project (the cache included).
pub fn files_named(tag: &str, p: &Project) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = ["/tmp", "/dev/shm", "/var/tmp"]
        .iter()
        .filter_map(|d| fs::read_dir(d).ok())
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(tag))
        .map(|e| e.path())
        .collect();
    found.extend(
        walkdir::WalkDir::new(p.dir.path())
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(tag))
            .map(|e| e.path().to_path_buf()),
    );
    found
}

/// Removes what an attack left. Links are removed, never followed: a
/// planted link to `/` must not have `/` made unreadable by the chmod
/// that opens a planted unreadable folder.
pub fn remove_all(paths: &[PathBuf]) {
    use std::os::unix::fs::PermissionsExt;
    for f in paths {
        match f.symlink_metadata() {
            Ok(m) if m.is_dir() => {
                let _ = fs::set_permissions(f, fs::Permissions::from_mode(0o700));
                let _ = fs::remove_dir_all(f);
            }
            Ok(_) => {
                let _ = fs::remove_file(f);
            }
            Err(_) => {}
        }
    }
}

/// What is left in the cache's scratch folder (runs' and compiles' folders).
pub fn scratch_left(p: &Project) -> Vec<PathBuf> {
    fs::read_dir(p.path("cache/tmp"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

/// One attack: a project whose problem `p` has tests with the given input
/// lines (the first is the token a harmless program prints back), warmed
/// up with the reference on problem `other` so that its secret answers are
/// in the cache.
pub struct Attack {
    pub p: Project,
    pub tag: String,
    /// The cached answers of problem `other`.
    pub answers: Vec<PathBuf>,
    /// Judged with `--sandbox off`: the control that shows the attack
    /// works where nothing stops it (so the test can fail).
    pub off: bool,
    /// Files the judge inherits open (not close-on-exec) from whoever
    /// started it, as descriptors `INHERITED_FD` and on.
    pub inherit: Vec<fs::File>,
}

impl Attack {
    /// An attack on one test of `lines` under `limits`.
    pub fn new(who: As, lines: &[String], limits: &str) -> Attack {
        let mut a = Attack {
            p: Project::new(who),
            tag: nonce(),
            answers: Vec::new(),
            off: false,
            inherit: Vec::new(),
        };
        a.answers = a.warm_up();
        a.input(1, lines, limits);
        a
    }

    /// (Re)writes problem `p`: `tests` tests, each the token line then
    /// `lines` (one answer for all: the token).
    pub fn input(&self, tests: usize, lines: &[String], limits: &str) {
        let mut input = format!("token-{}\n", self.tag);
        for l in lines {
            input.push_str(l);
            input.push('\n');
        }
        let quoted = serde_json::to_string(&input).expect("a JSON string");
        let mut spec = format!(
            "id: p\ntitle: Red\nreference: reference.c\n{limits}\ngroups:\n  - name: main\n    tests:\n"
        );
        for _ in 0..tests {
            spec.push_str(&format!("      - input: {quoted}\n"));
        }
        self.p
            .write("problems/p/reference.c", &source("reference.c"));
        self.p.write("problems/p/problem.yaml", &spec);
    }

    /// Judges the reference on problem `other`, whose answer is a secret:
    /// the cache then holds answers a program could steal. Returns their
    /// paths.
    fn warm_up(&self) -> Vec<PathBuf> {
        self.p
            .problem("other", &format!("ANSWER-SECRET-{}\n", self.tag), "");
        let sub = self.p.write("subs/warm.c", &source("reference.c"));
        let (j, _cage) = judge(&self.p, "other", &sub, &[], &self.tag, &[]);
        assert_eq!(j.verdict(), "AC", "{}", j.show());
        let answers: Vec<PathBuf> = walkdir::WalkDir::new(self.p.path("cache"))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "ans"))
            .map(|e| e.path().to_path_buf())
            .collect();
        assert!(!answers.is_empty(), "no answers in the cache");
        answers
    }

    /// Judges `program` (a file of tests/hostile, or the text given) and,
    /// unless this is a control, checks everything an attack must leave
    /// as it was.
    pub fn run(&self, program: &str, text: Option<String>) -> Judged {
        let sub = match text {
            Some(t) => self.p.write(&format!("subs/{program}"), &t),
            None => self.p.write(&format!("subs/{program}"), &source(program)),
        };
        self.p.hand_over();
        let snapshot = Snapshot::take(&self.p);
        let extra: &[&str] = if self.off { &["--sandbox", "off"] } else { &[] };
        let (j, cage) = judge(&self.p, "p", &sub, extra, &self.tag, &self.inherit);
        // Looked for before the cage is dropped (which kills survivors).
        let left = processes_running_from(&self.p.path("cache"));
        drop(cage);
        let named = files_named(&self.tag, &self.p);
        remove_all(&named);
        if self.off {
            return j;
        }
        assert!(left.is_empty(), "processes of the run left: {left:?}");
        assert!(
            j.marked.is_empty(),
            "processes of the attack left: {:?}",
            j.marked
        );
        snapshot.assert_unchanged(&self.p, program);
        assert!(named.is_empty(), "files named after the attack: {named:?}");
        let scratch = scratch_left(&self.p);
        assert!(scratch.is_empty(), "left in the cache's tmp: {scratch:?}");
        assert!(j.result.is_object(), "no result: {}", j.show());
        eprintln!(
            "{program}: {} {}",
            j.verdict(),
            j.result["tests"][0]["message"]
        );
        j.assert_exit_matches();
        j
    }
}

/// `grundy judge PROBLEM SUB --json --all` in a cage, inheriting `inherit`
/// as descriptors `INHERITED_FD` and on; the cage is handed back so that
/// survivors can be looked for before it kills them.
pub fn judge(
    p: &Project,
    problem: &str,
    sub: &Path,
    extra: &[&str],
    tag: &str,
    inherit: &[fs::File],
) -> (Judged, Cage) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    p.hand_over();
    let mut cmd = p.grundy();
    cmd.args(extra)
        .arg("judge")
        .arg(problem)
        .arg(sub)
        .arg("--json")
        .arg("--all")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", p.path("home"))
        .env("GRUNDY_HOSTILE_MARKER", "judge-secret-environment")
        .current_dir(p.dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let cage = Cage::new(p.who).expect("cage");
    cage.apply(&mut cmd);
    let fds: Vec<i32> = inherit
        .iter()
        .map(std::os::fd::AsRawFd::as_raw_fd)
        .collect();
    if !fds.is_empty() {
        use std::os::unix::process::CommandExt;
        // SAFETY: only dup2 (async-signal-safe) between fork and exec; the
        // copies it makes are not close-on-exec, as a shell's `3<file` is.
        unsafe {
            cmd.pre_exec(move || {
                for (i, &fd) in fds.iter().enumerate() {
                    if libc::dup2(fd, INHERITED_FD + i as i32) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
    }
    // A hang detector, not a timing: far beyond any run's limits.
    let out = output_within(cmd.spawn().expect("spawn grundy"), Duration::from_secs(300));
    let marked = processes_with(tag);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("no JSON from grundy ({e}): {stdout:?} {stderr:?}"));
    (
        Judged {
            result: json["results"][0].clone(),
            code: out.status.code(),
            stderr,
            marked,
        },
        cage,
    )
}

/// AC under the sandbox; WA (the attack printed what it got) without it.
pub fn expect(j: &Judged, off: bool) {
    if off {
        assert_eq!(j.verdict(), "WA", "the attack did nothing: {}", j.show());
        assert!(j.show().contains("PWNED"), "{}", j.show());
    } else {
        assert_eq!(j.verdict(), "AC", "{}", j.show());
    }
}

/// This test process's pid, as an attack's input line.
pub fn me() -> String {
    std::process::id().to_string()
}
