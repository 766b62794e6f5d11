//! A judge nobody can hang, crash or fool: programs that cannot start,
//! trees no path can name, broken pipes, typos in a group name, floods of
//! stderr, symlinks planted by a compiler, and a compile cache that must
//! stay bounded. Each test runs the real binary in a cage of its own (see
//! tests/hostile/harness.rs), with a private `$TMPDIR`, and checks both the
//! verdict and that nothing was left behind.

#[path = "hostile/harness.rs"]
mod harness;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use harness::{As, Cage, Project, SERIAL};

/// Generous: only a hung judge reaches it (a hang detector, not a timing).
const WATCHDOG: Duration = Duration::from_secs(300);

/// The problem `p` of this file: three tests whose answer is the first
/// input line (see tests/hostile/reference.c).
fn project() -> Project {
    let p = Project::new(As::Me);
    p.write("problems/p/reference.c", &harness::source("reference.c"));
    p.write(
        "problems/p/problem.yaml",
        "id: p\ntitle: Trust\nreference: reference.c\nlimits: {time: 2s, memory: 128MiB, output: 1MiB}\n\
         samples:\n  - input: \"Alice\\n\"\n    output: \"Alice\\n\"\n\
         groups:\n  - name: main\n    tests:\n      - input: \"Bob\\n\"\n      - input: \"Carol\\n\"\n",
    );
    fs::create_dir_all(p.path("tmp")).expect("tmp");
    p
}

/// A correct solution of `p`.
const ECHO_C: &str = "#include <stdio.h>\nint main(void){char s[256];if(fgets(s,sizeof s,stdin))fputs(s,stdout);return 0;}\n";

/// `grundy --problems … --cache … ARGS` in a cage, with `$TMPDIR` the
/// project's `tmp`; killed (and the test failed) if it hangs.
fn grundy(p: &Project, args: &[&str]) -> Output {
    let mut cmd = command(p, args);
    let cage = Cage::new(As::Me).expect("cage");
    cage.apply(&mut cmd);
    let out = run_watched(cmd, WATCHDOG);
    drop(cage);
    out
}

fn command(p: &Project, args: &[&str]) -> Command {
    let mut cmd = p.grundy();
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", p.path("home"))
        .env("TMPDIR", p.path("tmp"))
        .env("NO_COLOR", "1")
        .current_dir(p.dir.path())
        .stdin(Stdio::null());
    // rustup finds its toolchains through $HOME, which is the project's.
    let rustup = std::env::var_os("RUSTUP_HOME").or_else(|| {
        std::env::var_os("HOME").map(|h| Path::new(&h).join(".rustup").into_os_string())
    });
    if let Some(r) = rustup {
        cmd.env("RUSTUP_HOME", r);
    }
    cmd
}

fn run_watched(mut cmd: Command, limit: Duration) -> Output {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let child = cmd.spawn().expect("spawn grundy");
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
            panic!("grundy hung (killed after {limit:?})");
        }
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The JSON result of `grundy judge p FILE --json ARGS`.
fn judge(p: &Project, file: &Path, extra: &[&str]) -> (serde_json::Value, Output) {
    let file = file.to_string_lossy().into_owned();
    let mut args = vec!["judge", "p", &file, "--json"];
    args.extend_from_slice(extra);
    let out = grundy(p, &args);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): stdout {:?} stderr {:?}",
            text(&out.stdout),
            text(&out.stderr)
        )
    });
    (json["results"][0].clone(), out)
}

/// Every test's verdict, in order.
fn verdicts(r: &serde_json::Value) -> Vec<String> {
    r["tests"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| t["verdict"].as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Nothing of the judge is left: its temporary folder holds nothing but
/// the user's empty folder of working folders, no scratch folder stays in
/// the cache, and no process runs from the cache.
fn assert_nothing_left(p: &Project) {
    // SAFETY: geteuid has no preconditions.
    let own = p.path(&format!("tmp/grundy-{}", unsafe { libc::geteuid() }));
    let mut left: Vec<PathBuf> = Vec::new();
    for e in fs::read_dir(p.path("tmp")).expect("tmp").flatten() {
        if e.path() == own && fs::symlink_metadata(&own).is_ok_and(|m| m.is_dir()) {
            left.extend(fs::read_dir(&own).expect("own").flatten().map(|e| e.path()));
        } else {
            left.push(e.path());
        }
    }
    assert!(left.is_empty(), "left in $TMPDIR: {left:?}");
    let scratch: Vec<PathBuf> = fs::read_dir(p.path("cache/tmp"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(scratch.is_empty(), "left in the cache's tmp: {scratch:?}");
    let running = harness::processes_running_from(&p.path("cache"));
    assert!(running.is_empty(), "processes left: {running:?}");
}

fn needs(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found && std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("`{tool}` is needed by this test and CI must have it");
    }
    found
}

fn gcc(p: &Project, name: &str, source: &str) -> PathBuf {
    let src = p.write(&format!("build/{name}.c"), source);
    let out = p.path(&format!("subs/{name}"));
    fs::create_dir_all(p.path("subs")).expect("subs");
    let ok = Command::new("gcc")
        .arg("-O2")
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .status()
        .expect("gcc");
    assert!(ok.success(), "gcc failed on {name}");
    out
}

// ---- Item 1: a program that fails to start never hangs the judge ----

#[test]
fn a_ready_executable_is_judged_as_itself() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    let exe = gcc(&p, "echo", ECHO_C);
    let (r, out) = judge(&p, &exe, &[]);
    assert_eq!(
        verdicts(&r),
        ["AC", "AC", "AC"],
        "{r:#}\n{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
    assert_nothing_left(&p);
}

/// Files the kernel refuses to execute, each judged on three tests: every
/// test is `RE` with the reason, and the judge goes on to the next.
#[test]
fn a_program_that_cannot_start_is_re_on_every_test() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    let empty = p.write("subs/empty", "");
    fs::set_permissions(&empty, fs::Permissions::from_mode(0o755)).expect("chmod");
    let interp = p.write(
        "subs/interp.c",
        &format!(
            "{ECHO_C}__attribute__((section(\".interp\"), used)) static const char pad[5000] = \"x\";\n"
        ),
    );
    // The same without the sandbox: what the kernel refuses is still the
    // program's fault, never the judge's (IE).
    for (file, extra) in [
        (&empty, vec!["--lang", "exe", "--all"]),
        (&interp, vec!["--all"]),
        (&empty, vec!["--lang", "exe", "--all", "--sandbox", "off"]),
        (&interp, vec!["--all", "--sandbox", "off"]),
    ] {
        let (r, out) = judge(&p, file, &extra);
        assert_eq!(
            verdicts(&r),
            ["RE", "RE", "RE"],
            "{}: {r:#}\n{}",
            file.display(),
            text(&out.stderr)
        );
        let message = r["tests"][2]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("could not be started"),
            "{}: {message}",
            file.display()
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    }
    // The judge that saw those failures still runs programs (a fresh one,
    // same cache: the slots were rebuilt, not reused broken).
    let ok = p.write("subs/ok.c", ECHO_C);
    let (r, _) = judge(&p, &ok, &[]);
    assert_eq!(verdicts(&r), ["AC", "AC", "AC"], "{r:#}");
    assert_nothing_left(&p);
}

#[test]
fn a_rust_static_library_is_re_not_a_hang() {
    if !needs("rustc") {
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    let lib = p.write(
        "subs/lib.rs",
        "#![crate_type = \"staticlib\"]\npub fn f() -> i32 { 1 }\nfn main() {}\n",
    );
    let (r, out) = judge(&p, &lib, &["--all"]);
    assert_eq!(
        verdicts(&r),
        ["RE", "RE", "RE"],
        "{r:#}\n{}",
        text(&out.stderr)
    );
    assert_nothing_left(&p);
}

/// SIGTERM (what Slurm and Kubernetes send) stops `grade` as Ctrl-C does,
/// even right after a program that could not start, and `--resume` then
/// finishes the class.
#[test]
fn sigterm_stops_grade_and_resume_finishes() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    let spec = fs::read_to_string(p.path("problems/p/problem.yaml")).expect("spec");
    p.write(
        "problems/p/problem.yaml",
        &spec.replace("time: 2s", "time: 200ms"),
    );
    p.write(
        "class/a-broken/p.c",
        &format!(
            "{ECHO_C}__attribute__((section(\".interp\"), used)) static const char pad[5000] = \"x\";\n"
        ),
    );
    p.write(
        "class/b-sleeper/p.c",
        "#include <unistd.h>\nint main(void){sleep(60);return 0;}\n",
    );
    let class = p.path("class").to_string_lossy().into_owned();
    let out_dir = p.path("out").to_string_lossy().into_owned();
    let args = [
        "grade",
        &class,
        "--problem",
        "p",
        "--out",
        &out_dir,
        "--jobs",
        "1",
    ];
    // Once the sleeper runs (the broken one came before it).
    sigterm_once_running(
        &p,
        &args,
        "the sleeper never started: the judge hung before it",
    );
    let mut resume = args.to_vec();
    resume.push("--resume");
    let again = grundy(&p, &resume);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stderr));
    let journal = fs::read_to_string(p.path("out/journal.jsonl")).expect("journal");
    let line = |who: &str| {
        journal
            .lines()
            .find(|l| l.contains(who))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line("a-broken").contains("\"verdict\":\"RE\""), "{journal}");
    assert!(
        line("b-sleeper").contains("\"verdict\":\"TLE\""),
        "{journal}"
    );
    assert_nothing_left(&p);
}

/// Runs grundy with `args` in a cage, sends it SIGTERM once a program of
/// the cache runs (`never` is the failure when none does in time), and
/// checks that it stopped cleanly: exit 143, the hint to resume, nothing
/// left behind.
fn sigterm_once_running(p: &Project, args: &[&str], never: &str) {
    let mut cmd = command(p, args);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let cage = Cage::new(As::Me).expect("cage");
    cage.apply(&mut cmd);
    let child = cmd.spawn().expect("grade");
    let pid = child.id() as i32;
    let bin = p.path("cache/bin");
    let waited = std::time::Instant::now();
    while harness::processes_running_from(&bin).is_empty() {
        if waited.elapsed() > WATCHDOG {
            // SAFETY: ending our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("{never}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(WATCHDOG) {
        Ok(Ok(out)) => out,
        _ => {
            // SAFETY: ending our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("grade did not stop on SIGTERM");
        }
    };
    drop(cage);
    assert_eq!(
        out.status.code(),
        Some(128 + libc::SIGTERM),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains("--resume"),
        "{}",
        text(&out.stderr)
    );
    assert_nothing_left(p);
}

/// SIGTERM while the problems are still being prepared (a slow reference
/// computing the answers) stops `grade` cleanly too: exit 143, the hint to
/// resume, nothing left behind.
#[test]
fn sigterm_while_preparing_stops_grade_cleanly() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    p.write(
        "problems/p/reference.c",
        "#include <stdio.h>\n#include <unistd.h>\nint main(void){char s[256];sleep(60);if(fgets(s,sizeof s,stdin))fputs(s,stdout);return 0;}\n",
    );
    p.write("class/a-echo/p.c", ECHO_C);
    let class = p.path("class").to_string_lossy().into_owned();
    let out_dir = p.path("out").to_string_lossy().into_owned();
    let args = ["grade", &class, "--problem", "p", "--out", &out_dir];
    // The reference runs from the cache's programs; nothing is judged
    // before its answers are in, a minute later.
    sigterm_once_running(&p, &args, "the reference never started");
}

// ---- Item 3: a reader that stops early ends the command quietly ----

/// Runs `grundy ARGS` with stdout a pipe whose reader is already gone (as
/// after `| head` has read enough): the first write fails.
fn into_closed_pipe(p: &Project, args: &[&str]) -> Output {
    let mut fds = [0; 2];
    // SAFETY: a valid array of two descriptors.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: the descriptors were just made and are ours.
    let (read, write) = unsafe {
        use std::os::fd::FromRawFd;
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    };
    drop(read);
    let mut cmd = command(p, args);
    cmd.stdout(Stdio::from(write)).stderr(Stdio::piped());
    let child = cmd.spawn().expect("grundy");
    let (tx, rx) = std::sync::mpsc::channel();
    let id = child.id();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(WATCHDOG) {
        Ok(Ok(out)) => out,
        _ => {
            // SAFETY: ending our own child.
            unsafe { libc::kill(id as i32, libc::SIGKILL) };
            panic!("grundy hung writing to a closed pipe");
        }
    }
}

#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    let ok = p.write("subs/ok.c", ECHO_C);
    let ok = ok.to_string_lossy().into_owned();
    for args in [
        vec!["list", "--json"],
        vec!["list"],
        vec!["verify", "p"],
        vec!["judge", "p", &ok],
    ] {
        let out = into_closed_pipe(&p, &args);
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
        assert!(
            out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {:?} {stderr}",
            out.status
        );
    }
    // A stopped judge's folder is removed by the next judge.
    let again = grundy(&p, &["judge", "p", &ok]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_nothing_left(&p);
}

// ---- Item 6: judging nothing is bad usage, not AC ----

#[test]
fn a_misspelt_group_is_bad_usage_naming_the_groups() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    let ok = p.write("subs/ok.c", ECHO_C);
    let ok = ok.to_string_lossy().into_owned();
    let out = grundy(&p, &["judge", "p", &ok, "--tests", "mian"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("mian") && stderr.contains("sample") && stderr.contains("main"),
        "{stderr}"
    );
    // The right name judges.
    let out = grundy(&p, &["judge", "p", &ok, "--tests", "main"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_nothing_left(&p);
}

#[test]
fn a_problem_without_groups_is_bad_input_naming_the_file() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    let spec = fs::read_to_string(p.path("problems/p/problem.yaml")).expect("spec");
    let cut = spec.find("groups:").expect("groups");
    p.write(
        "problems/p/problem.yaml",
        &format!("{}groups: []\n", &spec[..cut]),
    );
    let ok = p.write("subs/ok.c", ECHO_C);
    let out = grundy(&p, &["judge", "p", &ok.to_string_lossy()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("problem.yaml") && stderr.contains("groups"),
        "{stderr}"
    );
    assert_nothing_left(&p);
}

// ---- Item 2: any tree a program makes is cleaned up ----

/// Answers, then makes a 20,000-level chain of folders in its working
/// folder (chains of 100 levels, each moved below the last with
/// `renameat`, so no path ever grows past `PATH_MAX`), with a symbolic link
/// to the project at the bottom (the removal must not follow it).
const DEEP_TREE_C: &str = r#"#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
int main(void){
  char s[256];
  if(fgets(s,sizeof s,stdin)) fputs(s,stdout);
  fflush(stdout);
  if (s[0] != 'B') return 0; /* one test of the three is enough */
  int deep = -1;
  for (int round = 0; round < 200; round++) {
    const char *name = round == 0 ? "top" : "next";
    if (mkdir(name, 0755) != 0) return 3;
    int fd = open(name, O_RDONLY | O_DIRECTORY);
    for (int i = 0; i < 99; i++) {
      if (mkdirat(fd, "d", 0755) != 0) return 4;
      int n = openat(fd, "d", O_RDONLY | O_DIRECTORY);
      close(fd);
      fd = n;
    }
    if (deep >= 0) {
      if (renameat(AT_FDCWD, "next", deep, "d") != 0) return 5;
      close(deep);
    }
    deep = fd;
  }
  symlinkat("VICTIM_PATH", deep, "link");
  /* The deepest folder made unwritable, as a last trick. */
  fchmod(deep, 0);
  return 0;
}
"#;

#[test]
fn a_tree_deeper_than_path_max_is_removed() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let p = project();
    let spec = fs::read_to_string(p.path("problems/p/problem.yaml")).expect("spec");
    p.write(
        "problems/p/problem.yaml",
        &spec
            .replace("time: 2s", "time: 20s")
            .replace("output: 1MiB", "output: 512MiB"),
    );
    let victim = p.write("victim/keep", "keep");
    let deep = p.write(
        "subs/deep.c",
        &DEEP_TREE_C.replace("VICTIM_PATH", &p.path("victim").to_string_lossy()),
    );
    let (r, out) = judge(&p, &deep, &[]);
    assert_eq!(
        verdicts(&r),
        ["AC", "AC", "AC"],
        "{r:#}\n{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // What the link points to, which following it would have removed, stays.
    assert!(victim.is_file());
    assert_nothing_left(&p);
}
