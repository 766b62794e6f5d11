//! More red-team attacks (sources in tests/hostile/red), and the items of
//! the trust audit whose first tests checked only a verdict, judged again
//! here with the checks every attack gets: the judge exits with the code
//! of its verdict, no file of the project changed or appeared (problems,
//! submissions, `$HOME`, the cached answers), nothing named after the
//! attack appeared in `/tmp`, `/dev/shm` or `/var/tmp` or anywhere in the
//! project, the cache's scratch folder is empty, and no process of the run
//! is left.
//!
//! Each judge runs in a cage of its own (tests/hostile/harness.rs: a
//! process and memory cap around it). `user_` tests judge as `nobody`
//! and fail under `CI=true` when they cannot run. Where an attack can
//! work at all, a control judges it with `--sandbox off` and sees it
//! succeed, so that its test can fail.

#[path = "hostile/harness.rs"]
mod harness;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use harness::{
    As, Cage, Project, SERIAL, Snapshot, nobody, nonce, processes_running_from, processes_with,
    source, verdict,
};

const LIMITS_SMALL: &str = "limits:\n  time: 1s\n  memory: 64MiB\n  output: 8MiB";
const LIMITS_DEFAULT: &str = "limits:\n  time: 2s\n  memory: 256MiB";
const NOT_ROOT: &str = "the unprivileged attacks are run as this user by the other tests";

/// A control runs programs as root with nothing around them: only then do
/// the attacks that need a permission get through.
fn control_possible() -> bool {
    if harness::is_root() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but the controls need root"
    );
    false
}

/// What one judge did, and what it left.
struct Judged {
    result: serde_json::Value,
    code: Option<i32>,
    stderr: String,
    /// Processes whose command line holds the attack's tag, seen before
    /// the cage killed them.
    marked: Vec<i32>,
}

impl Judged {
    fn verdict(&self) -> String {
        verdict(&self.result)
    }

    fn verdicts(&self) -> Vec<String> {
        self.result["tests"]
            .as_array()
            .map(|t| {
                t.iter()
                    .map(|t| t["verdict"].as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn show(&self) -> String {
        format!(
            "exit {:?}, result {}, stderr {}",
            self.code,
            serde_json::to_string_pretty(&self.result).unwrap_or_default(),
            self.stderr
        )
    }
}

/// Files whose name holds `tag` in the places a run could reach if it
/// escaped its folder, and anywhere in the project (the cache included).
fn files_named(tag: &str, p: &Project) -> Vec<PathBuf> {
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
fn remove_all(paths: &[PathBuf]) {
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
fn scratch_left(p: &Project) -> Vec<PathBuf> {
    fs::read_dir(p.path("cache/tmp"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

/// One attack: a project whose problem `p` has `tests` tests with the given
/// input lines (the first is the token a harmless program prints back),
/// warmed up with the reference on problem `other` so that its secret
/// answers are in the cache.
struct Attack {
    p: Project,
    tag: String,
    answers: Vec<PathBuf>,
    off: bool,
}

impl Attack {
    fn new(who: As, lines: &[String], limits: &str) -> Attack {
        let mut a = Attack {
            p: Project::new(who),
            tag: nonce(),
            answers: Vec::new(),
            off: false,
        };
        a.answers = a.warm_up();
        a.input(1, lines, limits);
        a
    }

    /// (Re)writes problem `p`: `tests` tests, each the token line then
    /// `lines` (one answer for all: the token).
    fn input(&self, tests: usize, lines: &[String], limits: &str) {
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

    fn warm_up(&self) -> Vec<PathBuf> {
        self.p
            .problem("other", &format!("ANSWER-SECRET-{}\n", self.tag), "");
        let sub = self.p.write("subs/warm.c", &source("reference.c"));
        let (j, _cage) = judge(&self.p, "other", &sub, &[], &self.tag);
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
    fn run(&self, program: &str, text: Option<String>) -> Judged {
        let sub = match text {
            Some(t) => self.p.write(&format!("subs/{program}"), &t),
            None => self.p.write(&format!("subs/{program}"), &source(program)),
        };
        self.p.hand_over();
        let snapshot = Snapshot::take(&self.p);
        let extra: &[&str] = if self.off { &["--sandbox", "off"] } else { &[] };
        let (j, cage) = judge(&self.p, "p", &sub, extra, &self.tag);
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
        let want = if j.verdict() == "AC" { 0 } else { 1 };
        assert_eq!(j.code, Some(want), "{}", j.show());
        j
    }
}

/// `grundy judge PROBLEM SUB --json --all` in a cage, the cage handed back.
fn judge(p: &Project, problem: &str, sub: &Path, extra: &[&str], tag: &str) -> (Judged, Cage) {
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
    let child = cmd.spawn().expect("spawn grundy");
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    // A hang detector, not a timing: far beyond any run's limits.
    let out = match rx.recv_timeout(Duration::from_secs(300)) {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => panic!("grundy failed: {e}"),
        Err(_) => {
            // SAFETY: ending our own child.
            unsafe { libc::kill(id as i32, libc::SIGKILL) };
            panic!("grundy hung");
        }
    };
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
fn expect(j: &Judged, off: bool) {
    if off {
        assert_eq!(j.verdict(), "WA", "the attack did nothing: {}", j.show());
        assert!(j.show().contains("PWNED"), "{}", j.show());
    } else {
        assert_eq!(j.verdict(), "AC", "{}", j.show());
    }
}

fn me() -> String {
    std::process::id().to_string()
}

// ---------------------------------------------------------------------
// Reading answers

fn hardlink(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let lines: Vec<String> = a.answers.iter().map(|p| p.display().to_string()).collect();
    a.input(1, &lines, LIMITS_DEFAULT);
    let j = a.run("red/hardlink_answer.c", None);
    expect(&j, off);
    if !off {
        assert!(!j.show().contains("ANSWER-SECRET"), "{}", j.show());
    }
}

/// A hard link to a cached answer made in its own folder, or the answer
/// renamed into it, then read there: neither can be made.
#[test]
fn answers_cannot_be_linked_or_moved_in() {
    hardlink(As::Me, false);
}

#[test]
fn user_answers_cannot_be_linked_or_moved_in() {
    if let Some(who) = nobody(NOT_ROOT) {
        hardlink(who, false);
    }
}

fn hunt(who: As, off: bool) {
    let mut a = Attack::new(who, &[me()], LIMITS_DEFAULT);
    a.off = off;
    let j = a.run("red/cache_hunt.c", None);
    expect(&j, off);
    if !off {
        assert!(!j.show().contains("ANSWER-SECRET"), "{}", j.show());
    }
}

/// The cache found without being told: upwards from its own program's
/// path, from the mount table, from `--cache` in the judge's command line;
/// every `*.ans` below read. Nothing is found.
#[test]
fn the_cache_cannot_be_hunted_down() {
    hunt(As::Me, false);
}

#[test]
fn user_the_cache_cannot_be_hunted_down() {
    if let Some(who) = nobody(NOT_ROOT) {
        hunt(who, false);
    }
}

// ---------------------------------------------------------------------
// Compile-time tricks

/// A C source whose build includes `@PATH@` when the compiler can see it,
/// and whose program says so.
const HAS_INCLUDE_C: &str = "#include <stdio.h>\n#if __has_include(\"@PATH@\")\n#define FOUND 1\n#else\n#define FOUND 0\n#endif\nint main(void){char t[256];if(!fgets(t,sizeof t,stdin))return 1;if(FOUND)puts(\"PWNED the answer is there\");else fputs(t,stdout);return 0;}\n";

fn probe_at_compile_time(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let answer = a.answers[0].display().to_string();
    let j = a.run(
        "red/has_include.c",
        Some(HAS_INCLUDE_C.replace("@PATH@", &answer)),
    );
    expect(&j, off);
}

/// `__has_include` of a cached answer: the compiler learns nothing of it
/// (it is not in the view), so the program cannot tell its path exists.
#[test]
fn compiler_cannot_probe_for_answers() {
    probe_at_compile_time(As::Me, false);
}

#[test]
fn user_compiler_cannot_probe_for_answers() {
    if let Some(who) = nobody(NOT_ROOT) {
        probe_at_compile_time(who, false);
    }
}

fn include_system_secret(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let text = "#include \"/etc/shadow\"\nint main(void){return 0;}\n".to_string();
    let j = a.run("red/shadow.c", Some(text));
    assert_eq!(j.verdict(), "CE", "{}", j.show());
    let log = j.result["compile"]["log"].as_str().unwrap_or("");
    // Its first line names root's account, as `/etc/passwd`'s does.
    assert_eq!(log.contains("root:"), off, "{log}");
}

/// `#include "/etc/shadow"`: a compile error that quotes nothing of it.
#[test]
fn compiler_cannot_include_the_shadow_file() {
    if !Path::new("/etc/shadow").exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but there is no /etc/shadow"
        );
        return;
    }
    include_system_secret(As::Me, false);
}

#[test]
fn user_compiler_cannot_include_the_shadow_file() {
    if let Some(who) = nobody(NOT_ROOT) {
        include_system_secret(who, false);
    }
}

/// A Python program on three tests that plants a module next to its own
/// script (the cache's copy, found through `__file__`), in its folder, and
/// in the folders on its input, then imports it on the next test.
const PLANT_PY: &str = r#"import os, sys
token = sys.stdin.readline().strip()
dirs = [os.path.dirname(os.path.abspath(__file__)), os.getcwd()]
dirs += [l.strip() for l in sys.stdin if l.strip()]
for d in dirs:
    if d not in sys.path:
        sys.path.append(d)
try:
    import grundy_red_planted
    print("PWNED imported what an earlier run planted")
    sys.exit(0)
except ImportError:
    pass
for d in dirs:
    try:
        with open(os.path.join(d, "grundy_red_planted.py"), "w") as f:
            f.write("PLANTED = True\n")
    except OSError:
        pass
print(token)
"#;

fn python_plant(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let lines = [a.p.path("cache"), a.p.path("cache/bin"), a.p.path("home")]
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>();
    a.input(3, &lines, LIMITS_DEFAULT);
    let j = a.run("plant.py", Some(PLANT_PY.to_string()));
    let planted: Vec<PathBuf> = walkdir::WalkDir::new(a.p.dir.path())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "grundy_red_planted.py")
        .map(|e| e.path().to_path_buf())
        .collect();
    remove_all(&planted);
    if off {
        assert!(j.verdicts().contains(&"WA".into()), "{}", j.show());
    } else {
        assert_eq!(j.verdicts(), ["AC", "AC", "AC"], "{}", j.show());
        assert!(planted.is_empty(), "planted: {planted:?}");
    }
}

/// The cached Python program's folder, the cache and `$HOME` take no
/// module for a later run to import.
#[test]
fn python_cannot_plant_a_module_for_later_runs() {
    python_plant(As::Me, false);
}

#[test]
fn user_python_cannot_plant_a_module_for_later_runs() {
    if let Some(who) = nobody(NOT_ROOT) {
        python_plant(who, false);
    }
}

// ---------------------------------------------------------------------
// Persisting

fn plant(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let lines = [
        a.p.path("home"),
        a.p.path("cache"),
        a.p.path("cache/bin"),
        a.p.path("cache/tmp"),
        a.p.path("problems/p"),
        PathBuf::from("/tmp"),
        PathBuf::from("/dev/shm"),
        PathBuf::from("/var/tmp"),
    ]
    .iter()
    .map(|p| p.display().to_string())
    .collect::<Vec<_>>();
    a.input(3, &lines, LIMITS_DEFAULT);
    let j = a.run("red/plant_for_later.c", None);
    if off {
        assert!(j.verdicts().contains(&"WA".into()), "{}", j.show());
        assert!(j.show().contains("PWNED"), "{}", j.show());
    } else {
        assert_eq!(j.verdicts(), ["AC", "AC", "AC"], "{}", j.show());
    }
}

/// A file, a FIFO, a link and an unreadable folder left in its own
/// folder, next to its program, in the cache, `$HOME`, the problem and the
/// shared temporary folders, for the next test to find: none is found,
/// none remains.
#[test]
fn nothing_planted_survives_to_the_next_test() {
    plant(As::Me, false);
}

#[test]
fn user_nothing_planted_survives_to_the_next_test() {
    if let Some(who) = nobody(NOT_ROOT) {
        plant(who, false);
    }
}

fn reaper(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let tag = a.tag.clone();
    a.input(1, &[format!("grundy-red-daemon-{tag}")], LIMITS_DEFAULT);
    let j = a.run("red/reaper_daemon.c", None);
    if off {
        assert!(!j.marked.is_empty(), "no daemon got away: {}", j.show());
    } else {
        assert_eq!(j.verdict(), "AC", "{}", j.show());
    }
}

/// A subreaper whose children leave its session and process group, ignore
/// SIGHUP and SIGTERM, double-fork, or are made its siblings with
/// `CLONE_PARENT`: none outlives the run.
#[test]
fn no_daemon_outlives_the_run_however_made() {
    reaper(As::Me, false);
}

#[test]
fn user_no_daemon_outlives_the_run_however_made() {
    if let Some(who) = nobody(NOT_ROOT) {
        reaper(who, false);
    }
}

// ---------------------------------------------------------------------
// Escaping

/// `TIOCSTI` into its streams and `/dev/tty`, `TIOCSCTTY`: no terminal to
/// push a command into.
#[test]
fn no_terminal_to_type_into() {
    let a = Attack::new(As::Me, &[], LIMITS_DEFAULT);
    let j = a.run("red/tty_inject.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

#[test]
fn user_no_terminal_to_type_into() {
    if let Some(who) = nobody(NOT_ROOT) {
        let a = Attack::new(who, &[], LIMITS_DEFAULT);
        let j = a.run("red/tty_inject.c", None);
        assert_eq!(j.verdict(), "AC", "{}", j.show());
    }
}

// ---------------------------------------------------------------------
// Resources (issue items 5, 7, 9 and 10 with the checks above)

fn deep_fill(who: As) {
    let a = Attack::new(who, &[], LIMITS_SMALL);
    let j = a.run("red/deep_fill.c", None);
    let iso = j.result["isolation"].as_str().unwrap_or("");
    assert!(iso.contains("tmpfs working folder"), "{}", j.show());
    assert_eq!(j.verdict(), "OLE", "{}", j.show());
    // The kernel held it to the cap.
    let stderr = j.result["tests"][0]["stderr"].as_str().unwrap_or("");
    let held = stderr
        .lines()
        .find_map(|l| l.strip_prefix("held "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(held.is_some_and(|mib| mib <= 8), "{}", j.show());
}

/// Files 3000 folders deep (far past `PATH_MAX`, where a walk by path
/// cannot reach), 64 MiB against an 8 MiB cap: the kernel refuses past the
/// cap, the run is OLE, and the tree is removed.
#[test]
fn disk_cap_counts_files_deeper_than_path_max() {
    deep_fill(As::Me);
}

#[test]
fn user_disk_cap_counts_files_deeper_than_path_max() {
    if let Some(who) = nobody(NOT_ROOT) {
        deep_fill(who);
    }
}

fn leave_files(who: As, off: bool) {
    // 40 MiB left by each test under a 96 MiB memory limit: a third run in
    // the same slot would be over it if the earlier runs' files lived on.
    let limits = "limits:\n  time: 2s\n  memory: 96MiB\n  output: 64MiB";
    let mut a = Attack::new(who, &[], limits);
    a.off = off;
    a.input(12, &[], limits);
    let j = a.run("red/leave_files.c", None);
    let verdicts = j.verdicts();
    assert_eq!(verdicts.len(), 12, "{}", j.show());
    assert!(verdicts.iter().all(|v| v == "AC"), "{}", j.show());
}

/// Each test leaves 40 MiB of files in its working folder: the next test
/// sees none of them, and their memory is not charged to it (twelve tests
/// over at most two slots, under a 96 MiB limit).
#[test]
fn files_a_run_leaves_are_gone_before_the_next_run() {
    leave_files(As::Me, false);
}

#[test]
fn user_files_a_run_leaves_are_gone_before_the_next_run() {
    if let Some(who) = nobody(NOT_ROOT) {
        leave_files(who, false);
    }
}

/// Without the sandbox nothing but the judge removes them: the next run
/// does not see them either.
#[test]
fn files_a_run_leaves_are_gone_without_the_sandbox_too() {
    leave_files(As::Me, true);
}

/// Item 5: 1 GiB reserved and touched under 64 MiB is MLE with a memory
/// group, reserved and 8 MiB touched is AC (RE for both under the
/// address-space cap), and neither leaves anything.
#[test]
fn memory_past_the_limit_leaves_nothing() {
    let a = Attack::new(As::Me, &[], LIMITS_SMALL);
    let touched = a.run("mem_touch_1g.c", None);
    let lazy = a.run("mem_lazy_1g.c", None);
    let iso = lazy.result["isolation"].as_str().unwrap_or("");
    if iso.contains("cgroups") {
        assert_eq!(touched.verdict(), "MLE", "{}", touched.show());
        assert_eq!(lazy.verdict(), "AC", "{}", lazy.show());
    } else {
        assert!(iso.contains("address-space cap"), "{iso}");
        assert_eq!(touched.verdict(), "RE", "{}", touched.show());
        assert_eq!(lazy.verdict(), "RE", "{}", lazy.show());
    }
}

/// Item 7: a stderr flood is never a verdict of its own (TLE on time for
/// one without end, AC for 2 GiB then the answer), and leaves nothing.
#[test]
fn stderr_floods_leave_nothing() {
    let a = Attack::new(As::Me, &[], LIMITS_SMALL);
    let j = a.run("stderr_flood.c", None);
    assert_eq!(j.verdict(), "TLE", "{}", j.show());
    let a = Attack::new(
        As::Me,
        &[],
        "limits:\n  time: 20s\n  memory: 64MiB\n  output: 8MiB",
    );
    let j = a.run("stderr_then_answer.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

fn many_small(who: As) {
    let a = Attack::new(who, &[], LIMITS_SMALL);
    let j = a.run("many_small.c", None);
    assert_eq!(j.verdict(), "MLE", "{}", j.show());
}

/// Item 9: many small processes over the memory limit are MLE, with no
/// process of the run or of the judge's helpers left.
#[test]
fn small_processes_over_memory_leave_nothing() {
    many_small(As::Me);
}

#[test]
fn user_small_processes_over_memory_leave_nothing() {
    if let Some(who) = nobody(NOT_ROOT) {
        many_small(who);
    }
}

/// Item 8: a Java class whose name no file system takes is CE naming the
/// file name, with nothing of the compile left.
#[test]
fn java_class_name_too_long_is_ce_and_leaves_nothing() {
    let a = Attack::new(As::Me, &[], LIMITS_DEFAULT);
    let name = format!("C{}", "x".repeat(300));
    let text = format!(
        "public class {name} {{ public static void main(String[] a) {{ System.out.println(\"x\"); }} }}\n"
    );
    let j = a.run("Long.java", Some(text));
    assert_eq!(j.verdict(), "CE", "{}", j.show());
    let log = j.result["compile"]["log"].as_str().unwrap_or("");
    assert!(log.contains("file name"), "{log}");
}

// ---------------------------------------------------------------------
// Controls

/// The attacks above that can work get through with `--sandbox off` (as
/// root), so their tests can fail.
#[test]
fn controls_without_sandbox_get_through() {
    if !control_possible() {
        return;
    }
    hardlink(As::Me, true);
    hunt(As::Me, true);
    probe_at_compile_time(As::Me, true);
    include_system_secret(As::Me, true);
    python_plant(As::Me, true);
    plant(As::Me, true);
    reaper(As::Me, true);
}
