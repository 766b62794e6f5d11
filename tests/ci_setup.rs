//! The two set-ups the README starts with: `.ci/setup.sh` installs what
//! judging needs (compilers and interpreters) and nothing else, `--tests`
//! adds what the test suite runs; `.ci/run` (CI) uses the second and then
//! runs exactly the README's test command.
//!
//! The script runs against stand-ins for `apt-get`, `python3` and the
//! rest, which record what they were asked, on a PATH where nothing is
//! installed: what a fresh machine would get, without installing it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Runs `.ci/setup.sh ARGS` on an empty machine (with Python, whose pip
/// the test set-up uses, or without); what it asked `apt-get install` and
/// `pip install` for, one request a line.
fn fresh_setup(args: &[&str], python: bool) -> (Option<i32>, String) {
    let tmp = tempfile::tempdir().expect("tmp");
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let log = tmp.path().join("log");
    let stub = |name: &str, body: &str| {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).expect("write");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    };
    let record = format!("echo \"$0 $*\" >> {}", log.display());
    // `cargo` is there (the toolchain the script expects); `id` says root,
    // so no sudo; `dpkg-query` knows no package.
    stub("apt-get", &record);
    if python {
        stub("python3", &record);
    }
    stub("cargo", "exit 0");
    stub("id", "echo 0");
    stub("dpkg-query", "exit 1");
    let out = Command::new("/bin/bash")
        .arg(repo(".ci/setup.sh"))
        .args(args)
        .env_clear()
        .env("PATH", &bin)
        .env("HOME", tmp.path())
        .output()
        .expect("run setup.sh");
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let asked = said
        .lines()
        .filter(|l| l.contains(" install "))
        .map(|l| l.rsplit_once('/').map_or(l, |(_, tail)| tail).to_string())
        .collect::<Vec<_>>()
        .join("\n");
    (out.status.code(), asked)
}

/// The packages named after `install` in each request.
fn packages(asked: &str) -> Vec<&str> {
    asked
        .lines()
        .flat_map(|l| {
            l.split_whitespace()
                .skip_while(|w| *w != "install")
                .skip(1)
                .filter(|w| !w.starts_with('-'))
        })
        .collect()
}

#[test]
fn the_judging_set_up_installs_the_compilers_only() {
    let (code, asked) = fresh_setup(&[], false);
    assert_eq!(code, Some(0), "{asked}");
    let mut got = packages(&asked);
    got.sort_unstable();
    assert_eq!(
        got,
        ["default-jdk-headless", "g++", "gcc", "pypy3", "python3"],
        "{asked}"
    );
}

#[test]
fn the_test_set_up_adds_what_the_tests_run() {
    let (code, asked) = fresh_setup(&["--tests"], true);
    assert_eq!(code, Some(0), "{asked}");
    let got = packages(&asked);
    for want in [
        "gcc",
        "default-jdk-headless",
        "chromium",
        "texlive-luatex",
        "ghostscript",
        "poppler-utils",
        "libjs-mathjax",
        "slurmctld",
        "munge",
        "problemtools",
        "kubernetes-validate",
    ] {
        assert!(got.contains(&want), "{want} not installed:\n{asked}");
    }
}

#[test]
fn an_unknown_option_is_refused() {
    let (code, asked) = fresh_setup(&["--test"], true);
    assert_eq!(code, Some(2));
    assert!(asked.is_empty(), "{asked}");
}

/// The README's two first commands, and `.ci/run` running the second.
#[test]
fn ci_runs_the_readmes_test_command() {
    let readme = std::fs::read_to_string(repo("README.md")).expect("README");
    let block = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a first sh block");
    let commands: Vec<&str> = block
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .collect();
    assert_eq!(
        commands,
        [
            "bash .ci/setup.sh && cargo run --release -- judge nim reference/nim.rs",
            "bash .ci/setup.sh --tests && cargo test --release",
        ]
    );
    let (setup, test) = commands[1].split_once(" && ").expect("two commands");
    let run = std::fs::read_to_string(repo(".ci/run")).expect(".ci/run");
    let lines: Vec<&str> = run
        .lines()
        .map(|l| l.trim().trim_start_matches("exec ").trim())
        .collect();
    let at_setup = lines.iter().position(|l| *l == setup);
    let at_test = lines.iter().position(|l| *l == test);
    assert!(
        matches!((at_setup, at_test), (Some(a), Some(b)) if a < b),
        ".ci/run must run `{setup}` then `{test}`:\n{run}"
    );
}
