//! A package's Python 3 programs run as the format's reference tool runs
//! them: with PyPy where `pypy3` is installed, else with CPython, and
//! `verify` says which interpreter measured a derived time limit. Each
//! test writes its package and runs real interpreters in the sandbox.

mod common;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

use common::{Project, stderr, stdout, write_package};

/// A package with no time limit whose accepted Python program prints the
/// interpreter running it, which its answer names (`answer`).
fn package(p: &Project, answer: &str) -> PathBuf {
    p.write("which/problem.yaml", "name: Which Python\n");
    p.write("which/data/secret/1.in", "1\n");
    p.write("which/data/secret/1.ans", &format!("{answer}\n"));
    // A few modules of the standard library: its files must be readable
    // in the sandbox, and nothing may need writing there.
    p.write(
        "which/submissions/accepted/impl.py",
        "import platform, fractions, json, collections\n\
         n = int(input())\n\
         assert json.loads('[1]') == [n] and fractions.Fraction(n, 2) * 2 == n\n\
         print(platform.python_implementation())\n",
    );
    p.path("which")
}

/// `grundy ARGS` with the test's own cache and `path` as its `PATH`: its
/// exit code, its stdout, and everything it printed.
fn grundy(p: &Project, args: &[&str], path: &OsString) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .arg("--problems")
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(p.path("cache"))
        .env("NO_COLOR", "1")
        .env("PATH", path)
        .output()
        .expect("run grundy");
    (
        out.status.code(),
        stdout(&out),
        format!("{}\n{}", stdout(&out), stderr(&out)),
    )
}

/// `grundy judge PACKAGE SUBMISSION --json` with `path` as its `PATH`: its
/// exit code, its report, and everything it printed.
fn judge_json(
    p: &Project,
    pkg: &std::path::Path,
    submission: &std::path::Path,
    path: &OsString,
) -> (Option<i32>, serde_json::Value, String) {
    let (code, json, text) = grundy(
        p,
        &[
            "judge",
            &pkg.to_string_lossy(),
            &submission.to_string_lossy(),
            "--json",
        ],
        path,
    );
    let v = serde_json::from_str(&json).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"));
    (code, v, text)
}

/// `program` on the judge's `PATH`, if any.
fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

#[test]
fn a_package_s_python_runs_with_pypy_where_installed() {
    if on_path("pypy3").is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but no pypy3 on PATH: `bash .ci/setup.sh` installs it (Debian's pypy3)"
        );
        eprintln!("skipped: no pypy3 here");
        return;
    }
    let p = Project::empty();
    let pkg = package(&p, "PyPy");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let (code, _, text) = grundy(&p, &["verify", &pkg.to_string_lossy()], &path);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok  impl.py"), "{text}");
    // The derived limit names the interpreter that measured it.
    assert!(
        text.contains("(accepted/impl.py on secret-1, Python 3 (PyPy) run by /"),
        "{text}"
    );
    let submission = pkg.join("submissions/accepted/impl.py");
    let (code, v, text) = judge_json(&p, &pkg, &submission, &path);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(v["results"][0]["verdict"], "AC", "{text}");
    // PyPy finds the CPU's caches in the sandbox: no warning of its own on
    // stderr, where a validator's reason or a compile log is read.
    assert!(!text.contains("L2 cache"), "{text}");
}

#[test]
fn a_package_without_pypy3_runs_cpython_and_says_so() {
    let p = Project::empty();
    let pkg = package(&p, "CPython");
    // The machine's PATH without any folder holding pypy3, and CPython
    // linked into a folder of its own (Debian keeps both in /usr/bin).
    let python3 = std::fs::canonicalize("/usr/bin/python3")
        .ok()
        .or_else(|| on_path("python3"))
        .expect("a python3 to judge with");
    let bin = p.path("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::os::unix::fs::symlink(&python3, bin.join("python3")).expect("link");
    let mut dirs = vec![bin];
    dirs.extend(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .filter(|d| !d.join("pypy3").exists()),
    );
    let path = std::env::join_paths(dirs).expect("PATH");
    let (code, _, text) = grundy(&p, &["verify", &pkg.to_string_lossy()], &path);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok  impl.py"), "{text}");
    assert!(
        text.contains("(accepted/impl.py on secret-1, Python 3 (CPython: no pypy3 here) run by /"),
        "{text}"
    );
}

/// A languages file that sets Python's commands keeps them for packages:
/// CPython, under the name the file leaves it.
#[test]
fn a_languages_file_that_sets_python_keeps_cpython_for_a_package() {
    let p = Project::empty();
    let pkg = package(&p, "CPython");
    let languages = p.write(
        "languages.yaml",
        "languages:\n  - id: python\n    run: [python3, \"{src}\"]\n",
    );
    let path = std::env::var_os("PATH").unwrap_or_default();
    let (code, _, text) = grundy(
        &p,
        &[
            "verify",
            &pkg.to_string_lossy(),
            "--languages",
            &languages.to_string_lossy(),
        ],
        &path,
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok  impl.py"), "{text}");
    assert!(
        text.contains("(accepted/impl.py on secret-1, Python 3 run by /"),
        "{text}"
    );
}

/// A package (in a folder), its cache and the judge's temporary folder under names
/// that are not ASCII (é, ü): a generator in Python starts and writes its
/// test there, under PyPy as under CPython. PyPy under the C locale takes
/// every file name for ASCII and dies at start.
#[test]
fn a_python_generator_runs_in_folders_whose_names_are_not_ascii() {
    let p = Project::empty();
    p.write(
        "dossier-é/twice/problem.yaml",
        "name: Twice\nlimits: {time_limit: 2}\n",
    );
    p.write(
        "dossier-é/twice/generators/generators.yaml",
        "solution: /submissions/accepted/twice.py\ndata:\n  secret:\n    data:\n      seven: gen.py 7\n",
    );
    p.write(
        "dossier-é/twice/generators/gen.py",
        "import sys\nprint(sys.argv[1])\n",
    );
    p.write(
        "dossier-é/twice/submissions/accepted/twice.py",
        "print(2 * int(input()))\n",
    );
    let tmp = p.path("tmp-ü");
    std::fs::create_dir_all(&tmp).expect("mkdir");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("verify")
        .arg(p.path("dossier-é/twice"))
        .arg("--cache")
        .arg(p.path("cache-ü"))
        .env("NO_COLOR", "1")
        .env("TMPDIR", &tmp)
        .output()
        .expect("run grundy");
    let text = format!("{}\n{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("ok  twice.py"), "{text}");
}

/// A package's accepted Python program that makes garbage in a loop,
/// under a 64 MiB memory limit: accepted under PyPy as under CPython.
/// PyPy left to itself sizes its young generation at half the CPU cache
/// `/proc/cpuinfo` reports (480 MiB on some virtual machines), and such a
/// program was `MLE` there while CPython's took 10 MiB.
#[test]
fn a_python_program_making_garbage_keeps_within_a_small_memory_limit() {
    let p = Project::empty();
    let pkg = PathBuf::from(write_package(
        &p,
        "garbage",
        "name: Garbage\nlimits: {time_limit: 10, memory: 64}\n",
        &[("3000000\n", "3000000\n")],
        &[(
            "submissions/accepted/lists.py",
            "n = int(input())\nt = 0\nfor i in range(n):\n    t += len([i, str(i), (i, i)]) // 3\nprint(t)\n",
        )],
    ));
    let submission = pkg.join("submissions/accepted/lists.py");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let (code, v, text) = judge_json(&p, &pkg, &submission, &path);
    assert_eq!(v["results"][0]["verdict"], "AC", "{text}");
    assert_eq!(code, Some(0), "{text}");
}

/// `grade` judges a package's Python 3 submission with the interpreter
/// `judge` uses: a class's student gets the verdict the student would get
/// from `grundy judge` on the same file, not one under another
/// interpreter (several times slower, so a `TLE` where `judge` says `AC`).
#[test]
fn grade_runs_a_package_s_python_as_judge_does() {
    let p = Project::empty();
    let expected = if on_path("pypy3").is_some() {
        "PyPy"
    } else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but no pypy3 on PATH: `bash .ci/setup.sh` installs it (Debian's pypy3)"
        );
        "CPython"
    };
    // The package under the problems folder, as a class's problems are.
    p.write("problems/which/problem.yaml", "name: Which Python\n");
    p.write("problems/which/data/secret/1.in", "1\n");
    p.write("problems/which/data/secret/1.ans", &format!("{expected}\n"));
    let program = "import platform\ninput()\nprint(platform.python_implementation())\n";
    p.write("problems/which/submissions/accepted/impl.py", program);
    p.write("class/ann/which.py", program);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let out = p.path("out");
    let (code, _, text) = grundy(
        &p,
        &[
            "grade",
            &p.path("class").to_string_lossy(),
            "--out",
            &out.to_string_lossy(),
        ],
        &path,
    );
    assert_eq!(code, Some(0), "{text}");
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("report.json"))
            .unwrap_or_else(|e| panic!("report.json: {e}\n{text}")),
    )
    .expect("JSON");
    let result = &report["results"][0];
    assert_eq!(result["verdict"], "AC", "{report:#}");
    // And `judge` on the same file agrees.
    let (code, v, text) = judge_json(
        &p,
        &p.path("problems/which"),
        &p.path("class/ann/which.py"),
        &path,
    );
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(v["results"][0]["verdict"], "AC", "{text}");
}
