//! A run cannot open the problems folder (Landlock), and it cannot `stat`
//! it either: the mount view shows every folder of problems the judge
//! loads as an empty folder, as root and as an ordinary user with
//! namespaces. Otherwise a submission that knows where a package keeps
//! its secret answers (the path is in every report) reads each answer's
//! size, which for a one-word problem is the answer: `Alice\n` is 6
//! bytes, `Bob\n` 4.
//!
//! Each attack is also judged with `--sandbox off`, where it is accepted:
//! the control that shows the attack works where nothing hides the files.
//! `grundy verify` on a copy of the catalog's `nim` (submissions in C,
//! C++, Java, Python and Rust, under the problem's folder) still passes
//! with the folder hidden: every program runs from the cache.
//!
//! The `user_` tests judge as `nobody` (the unprivileged mode); they need
//! root to switch, and fail under `CI=true` when they cannot run.

#[path = "hostile/harness.rs"]
mod harness;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use harness::{As, Cage, Project, SERIAL, is_root, verdict};

/// Who judges, or `None` (skipped) where that cannot be arranged outside
/// CI: both modes are arranged from root (the run uid as root; `nobody`
/// with user namespaces).
fn judge_as(who: As) -> Option<As> {
    if is_root() {
        return Some(who);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but the hidden-problems tests cannot run: they need root"
    );
    eprintln!("not root: skipped");
    None
}

/// A project whose folder others may pass through, as a problems folder
/// usually is: what keeps a run's uid out is then the view alone.
fn project(who: As) -> Project {
    let p = Project::new(who);
    fs::set_permissions(p.dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    p
}

/// A C submission that answers from the size of `<dir>/<n>/<n>.ans`, `n`
/// being its input, and prints `Carol` (wrong) when it cannot `stat` it.
/// Each test is in a group of its own (`<n>`), so that both are judged.
fn stat_attack(p: &Project, dir: &Path) -> PathBuf {
    let source = r#"#include <stdio.h>
#include <sys/stat.h>
int main(void) {
    int n;
    char path[4096];
    struct stat st;
    if (scanf("%d", &n) != 1) return 0;
    snprintf(path, sizeof path, "@DIR@/%d/%d.ans", n, n);
    if (stat(path, &st) != 0) { puts("Carol"); return 0; }
    puts(st.st_size == 6 ? "Alice" : st.st_size == 4 ? "Bob" : "Carol");
    return 0;
}
"#
    .replace("@DIR@", &dir.display().to_string());
    p.write("subs/stat_size.c", &source)
}

/// Judges `problem` (an id or a package's path) with the attack, hidden
/// and then with `--sandbox off`.
fn attack(p: &Project, problem: &str, answers: &Path) {
    let sub = stat_attack(p, answers);
    let (control, stderr) = p.judge(problem, &sub, &["--sandbox", "off"]);
    assert_eq!(
        verdict(&control),
        "AC",
        "the attack must work without the sandbox: {control} {stderr}"
    );
    let (r, stderr) = p.judge(problem, &sub, &[]);
    assert_eq!(verdict(&r), "WA", "{r} {stderr}");
    let messages: Vec<String> = r["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| t["verdict"].as_str().unwrap_or("?").to_string())
        .collect();
    assert_eq!(messages, ["WA", "WA"], "{r}");
}

/// An ICPC package, outside the problems folder and judged by its path,
/// with secret answers `Alice` and `Bob`.
fn package_answers(who: As) {
    let p = project(who);
    p.write("packages/word/problem.yaml", "name: Word\n");
    p.write("packages/word/data/secret/1/1.in", "1\n");
    p.write("packages/word/data/secret/1/1.ans", "Alice\n");
    p.write("packages/word/data/secret/2/2.in", "2\n");
    p.write("packages/word/data/secret/2/2.ans", "Bob\n");
    let pkg = p.path("packages/word");
    attack(&p, &pkg.display().to_string(), &pkg.join("data/secret"));
}

#[test]
fn a_package_answer_cannot_be_statted() {
    if let Some(who) = judge_as(As::Me) {
        package_answers(who);
    }
}

#[test]
fn user_a_package_answer_cannot_be_statted() {
    if let Some(who) = judge_as(As::Nobody) {
        package_answers(who);
    }
}

/// A grundy spec in the problems folder whose handmade tests are files
/// beside `problem.yaml`.
fn handmade_answers(who: As) {
    let p = project(who);
    p.write(
        "problems/hand/problem.yaml",
        "id: hand\ntitle: Handmade\ngroups:\n  \
         - name: one\n    tests:\n      - file: tests/1/1.in\n        answer: tests/1/1.ans\n  \
         - name: two\n    tests:\n      - file: tests/2/2.in\n        answer: tests/2/2.ans\n",
    );
    p.write("problems/hand/tests/1/1.in", "1\n");
    p.write("problems/hand/tests/1/1.ans", "Alice\n");
    p.write("problems/hand/tests/2/2.in", "2\n");
    p.write("problems/hand/tests/2/2.ans", "Bob\n");
    attack(&p, "hand", &p.path("problems/hand/tests"));
}

#[test]
fn a_handmade_answer_cannot_be_statted() {
    if let Some(who) = judge_as(As::Me) {
        handmade_answers(who);
    }
}

#[test]
fn user_a_handmade_answer_cannot_be_statted() {
    if let Some(who) = judge_as(As::Nobody) {
        handmade_answers(who);
    }
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// `grundy verify nim` on a copy of the catalog's `nim`. As `nobody`, who
/// cannot reach the Rust toolchain under `/root`, the reference is the
/// accepted Python submission and the Rust submission is left out.
fn verify_nim(who: As) {
    let p = project(who);
    for entry in walkdir::WalkDir::new(repo("problems/nim")) {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(repo("problems")).expect("inside");
        let dest = p.path("problems").join(rel);
        if entry.file_type().is_dir() {
            fs::create_dir_all(&dest).expect("mkdir");
        } else {
            fs::copy(entry.path(), &dest).expect("copy");
        }
    }
    let yaml = p.path("problems/nim/problem.yaml");
    if who == As::Nobody {
        fs::remove_file(p.path("problems/nim/submissions/wrong_answer/skip_first.rs"))
            .expect("remove the Rust submission");
        let text = fs::read_to_string(&yaml).expect("read spec");
        fs::write(
            &yaml,
            text.replacen(
                "checker: tokens\n",
                "checker: tokens\nreference: submissions/accepted/solution.py\n",
                1,
            ),
        )
        .expect("write spec");
    } else {
        fs::copy(repo("reference/nim.rs"), p.write("reference/nim.rs", "")).expect("reference");
    }
    // The judge's own user keeps its home (rustup's settings live there);
    // `nobody` gets the project's.
    let home = match who {
        As::Me => std::env::var_os("HOME").unwrap_or_default(),
        As::Nobody => p.path("home").into_os_string(),
    };
    for lang in ["py", "java"] {
        assert!(
            p.path(&format!(
                "problems/nim/submissions/accepted/solution.{lang}"
            ))
            .is_file()
        );
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    p.hand_over();
    let mut cmd = p.grundy();
    cmd.args(["verify", "nim"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .current_dir(p.dir.path())
        .stdin(Stdio::null());
    let cage = Cage::new(who).expect("cage");
    cage.apply(&mut cmd);
    let out = cmd.output().expect("run grundy verify");
    drop(cage);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("verify: everything as expected"), "{text}");
}

#[test]
fn verify_passes_with_the_problem_hidden() {
    if let Some(who) = judge_as(As::Me) {
        verify_nim(who);
    }
}

#[test]
fn user_verify_passes_with_the_problem_hidden() {
    if let Some(who) = judge_as(As::Nobody) {
        verify_nim(who);
    }
}
