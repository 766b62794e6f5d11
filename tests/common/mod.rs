//! Shared fixtures: a small Nim problem in a temporary folder, and a way to
//! run the real `grundy` binary on it.

#![allow(dead_code)]

pub mod browser;
pub mod checkers;
pub mod doubling;
pub mod problemtools;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A temporary project with `problems/` and `reference/`.
pub struct Project {
    pub dir: tempfile::TempDir,
}

/// The spec of the toy problem; `extra` is appended (e.g. a `limits:` block).
pub const TOY_SPEC: &str = "id: toy
title: Toy Nim
source: tests
samples:
  - input: |
      2
      1 1
    output: |
      Bob
groups:
  - name: small
    points: 40
    tests:
      - input: \"1\\n5\\n\"
      - input: \"3\\n1 2 3\\n\"
  - name: large
    points: 60
    tests:
      - input: \"2\\n7 4\\n\"
";

/// A correct C solution of the toy problem.
pub const TOY_C: &str = r#"#include <stdio.h>
int main(void) {
    int n, a, x = 0;
    if (scanf("%d", &n) != 1) return 1;
    while (n-- > 0 && scanf("%d", &a) == 1) x ^= a;
    puts(x ? "Alice" : "Bob");
    return 0;
}
"#;

impl Project {
    /// The toy problem with `extra` YAML appended to its spec.
    pub fn toy(extra: &str) -> Project {
        let p = Project::empty();
        p.write("problems/toy/problem.yaml", &format!("{TOY_SPEC}{extra}"));
        p.write(
            "problems/toy/statement.md",
            "# Toy\n\n```\n2\n1 1\n```\n\n```\nBob\n```\n",
        );
        p.write("reference/toy.c", TOY_C);
        p
    }

    /// A project with the one problem `id`: its spec and statement.
    pub fn with_problem(id: &str, spec: &str, statement: &str) -> Project {
        let p = Project::empty();
        p.write(&format!("problems/{id}/problem.yaml"), spec);
        p.write(&format!("problems/{id}/statement.md"), statement);
        p
    }

    pub fn empty() -> Project {
        Project {
            dir: tempfile::tempdir().expect("temporary folder"),
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
        p
    }

    /// Runs grundy with this project's problems and the shared test cache.
    pub fn grundy(&self, args: &[&str]) -> Output {
        grundy_in(&self.path("problems"), args)
    }

    /// `judge toy FILE --json`, parsed; panics with the output if it is not JSON.
    pub fn judge_json(&self, file: &Path, extra: &[&str]) -> serde_json::Value {
        let f = file.to_string_lossy().into_owned();
        let mut args = vec!["judge", "toy", f.as_str(), "--json"];
        args.extend_from_slice(extra);
        let out = self.grundy(&args);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}); stdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        })
    }

    /// Writes a submission and judges it; returns the first result object.
    pub fn judge_source(&self, name: &str, source: &str, extra: &[&str]) -> serde_json::Value {
        let file = self.write(&format!("subs/{name}"), source);
        let v = self.judge_json(&file, extra);
        v["results"][0].clone()
    }
}

/// Runs the grundy binary with `--problems DIR` and a cache shared by all tests.
pub fn grundy_in(problems: &Path, args: &[&str]) -> Output {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grundy-test-cache");
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .arg("--problems")
        .arg(problems)
        .arg("--cache")
        .arg(&cache)
        .env("NO_COLOR", "1")
        .output()
        .expect("run grundy")
}

/// The verdict of each test of a result, in order.
pub fn verdicts(result: &serde_json::Value) -> Vec<String> {
    result["tests"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|t| t["verdict"].as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `grundy judge PACKAGE SUBMISSION --json`: the submission's result.
pub fn judge_package(p: &Project, package: &Path, submission: &Path) -> serde_json::Value {
    let out = p.grundy(&[
        "judge",
        &package.to_string_lossy(),
        &submission.to_string_lossy(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
    v["results"][0].clone()
}

/// A project whose runs use a compile cache of its own, for tests that
/// must share no state with the others (that count runs or compare
/// reports across runs). Each test file adds the methods it needs.
pub struct Isolated(pub Project);

impl std::ops::Deref for Isolated {
    type Target = Project;
    fn deref(&self) -> &Project {
        &self.0
    }
}

impl Isolated {
    /// Runs grundy with the project's problems and its own cache.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args)
            .arg("--problems")
            .arg(self.path("problems"))
            .arg("--cache")
            .arg(self.path("cache"))
            .env("NO_COLOR", "1")
            .output()
            .expect("run grundy")
    }
}

/// `grundy ARGS`: its exit code and everything it printed (stdout, then
/// stderr), for tests that look for a line wherever it was written.
pub fn grundy_text(p: &Project, args: &[&str]) -> (Option<i32>, String) {
    let out = p.grundy(args);
    (
        out.status.code(),
        format!("{}\n{}", stdout(&out), stderr(&out)),
    )
}

/// `grundy verify PACKAGE`: its exit code and everything it printed.
pub fn verify_package(p: &Project, package: &Path) -> (Option<i32>, String) {
    grundy_text(p, &["verify", &package.to_string_lossy()])
}

/// `grundy verify PACKAGE` exits 0 and its report holds every one of
/// `lines` (one a submission: `ok  NAME  expected V  got V`).
pub fn assert_verifies(p: &Project, package: &str, lines: &[&str]) {
    let out = p.grundy(&["verify", package]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    for line in lines {
        assert!(text.contains(line), "missing `{line}`:\n{text}");
    }
}

/// One of the ICPC packages under tests/fixtures/icpc.
pub fn icpc_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/icpc")
        .join(name)
}

/// A copy of an ICPC fixture package in the project, to change freely.
pub fn copy_icpc_fixture(p: &Project, name: &str) -> PathBuf {
    let from = icpc_fixture(name);
    let dest = p.path(name);
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(&from).expect("inside");
        let to = dest.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &to).expect("copy");
        }
    }
    dest
}

/// Writes the ICPC package `name/` in the project: `problem.yaml`, the
/// secret tests `1`, `2`, … as (input, answer), and the other `files` as
/// (path inside the package, text). Returns the package's path.
pub fn write_package(
    p: &Project,
    name: &str,
    problem_yaml: &str,
    secret: &[(&str, &str)],
    files: &[(&str, &str)],
) -> String {
    p.write(&format!("{name}/problem.yaml"), problem_yaml);
    for (i, (input, answer)) in secret.iter().enumerate() {
        let test = i + 1;
        p.write(&format!("{name}/data/secret/{test}.in"), input);
        p.write(&format!("{name}/data/secret/{test}.ans"), answer);
    }
    for (rel, text) in files {
        p.write(&format!("{name}/{rel}"), text);
    }
    p.path(name).to_string_lossy().into_owned()
}

/// A C submission that reads a number and prints it doubled: the right
/// answer of the doubling packages the interactor tests build.
pub const DOUBLE_C: &str = r#"
#include <stdio.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    printf("%lld\n", 2 * n);
    return 0;
}
"#;

/// A C program that prints its input plus one: a fast accepted submission
/// for packages whose answers are `n + 1`.
pub const INC_C: &str = r#"
#include <stdio.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    printf("%lld\n", n + 1);
    return 0;
}
"#;
