//! Shared fixtures: a small Nim problem in a temporary folder, and a way to
//! run the real `grundy` binary on it.

#![allow(dead_code)]

pub mod browser;

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

/// `grundy verify PACKAGE`: its exit code and everything it printed.
pub fn verify_package(p: &Project, package: &Path) -> (Option<i32>, String) {
    let out = p.grundy(&["verify", &package.to_string_lossy()]);
    (
        out.status.code(),
        format!("{}\n{}", stdout(&out), stderr(&out)),
    )
}
