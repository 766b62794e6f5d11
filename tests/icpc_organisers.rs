//! Packages as contest organisers publish them: a `testlib.h` beside the
//! output validator and the interactor (DOMjudge's and SWERC's layout),
//! the time limit in DOMjudge's `domjudge-problem.ini`, Python 2 in old
//! packages (with and without an interpreter here), BAPCtools' `.py3` and
//! `.sh` submissions, and tests linked into later groups. Each test
//! writes its package, and judges real submissions with real compilers
//! and interpreters.

mod common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Project, judge_package, verdicts, verify_package};

/// A header the validator and the interactor include, written here in
/// the spirit of testlib's (the real one is 5000 lines).
const TESTLIB_H: &str = "#pragma once\n#include <cstdlib>\n\
    inline void quitf_ok() { std::exit(42); }\n\
    inline void quitf_wa() { std::exit(43); }\n";

/// `n` on the input, `n*n` expected: the tests of every package here.
fn square_tests(p: &Project, pkg: &str) {
    for (i, n) in [3u64, 12, 1000].iter().enumerate() {
        p.write(
            &format!("{pkg}/data/secret/{}.in", i + 1),
            &format!("{n}\n"),
        );
        p.write(
            &format!("{pkg}/data/secret/{}.ans", i + 1),
            &format!("{}\n", n * n),
        );
    }
}

#[test]
fn a_header_beside_a_legacy_output_validator_is_part_of_it() {
    let p = Project::empty();
    p.write("hdr/problem.yaml", "name: Header\nvalidation: custom\n");
    p.write("hdr/.timelimit", "2\n");
    square_tests(&p, "hdr");
    p.write("hdr/output_validators/testlib.h", TESTLIB_H);
    p.write(
        "hdr/output_validators/checker.cpp",
        "#include <fstream>\n#include <iostream>\n#include \"testlib.h\"\n\
         int main(int, char** argv) {\n\
           std::ifstream ans(argv[2]); long long want; ans >> want;\n\
           long long got; if (!(std::cin >> got) || got != want) quitf_wa();\n\
           quitf_ok();\n}\n",
    );
    p.write(
        "hdr/submissions/accepted/square.py",
        "n = int(input())\nprint(n * n)\n",
    );
    p.write(
        "hdr/submissions/wrong_answer/double.py",
        "n = int(input())\nprint(2 * n)\n",
    );
    let (code, text) = verify_package(&p, &p.path("hdr"));
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok  double.py"), "{text}");
    // Two programs are still two: refused, naming both.
    p.write(
        "hdr/output_validators/other.cpp",
        "int main() { return 42; }\n",
    );
    let (code, text) = verify_package(&p, &p.path("hdr"));
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("2 output validators found (checker.cpp, other.cpp)"),
        "{text}"
    );
}

#[test]
fn a_header_beside_a_legacy_interactor_is_part_of_it() {
    let p = Project::empty();
    p.write(
        "ihdr/problem.yaml",
        "name: Header\nvalidation: custom interactive\n",
    );
    p.write("ihdr/.timelimit", "2\n");
    square_tests(&p, "ihdr");
    p.write("ihdr/output_validators/testlib.h", TESTLIB_H);
    p.write(
        "ihdr/output_validators/interactor.cpp",
        "#include <fstream>\n#include <iostream>\n#include \"testlib.h\"\n\
         int main(int, char** argv) {\n\
           std::ifstream in(argv[1]); long long n; in >> n;\n\
           std::cout << n << std::endl;\n\
           long long got; if (!(std::cin >> got) || got != n * n) quitf_wa();\n\
           quitf_ok();\n}\n",
    );
    p.write(
        "ihdr/submissions/accepted/square.py",
        "n = int(input())\nprint(n * n, flush=True)\n",
    );
    p.write(
        "ihdr/submissions/wrong_answer/double.py",
        "n = int(input())\nprint(2 * n, flush=True)\n",
    );
    let (code, text) = verify_package(&p, &p.path("ihdr"));
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok  double.py"), "{text}");
}

/// A package whose only time limit is DOMjudge's file: a submission
/// spinning 0.8 s of CPU is `TLE` under its 0.3 s (and would be `AC`
/// under the 1 s grundy derives without it).
#[test]
fn domjudges_ini_gives_the_time_limit_after_problem_yaml() {
    let p = Project::empty();
    p.write("ini/problem.yaml", "source: A DOMjudge export\n");
    p.write(
        "ini/domjudge-problem.ini",
        "probid = 'A'\nname = 'From the ini'\ntimelimit = 0.3\ncolor = '#ff0000'\n",
    );
    square_tests(&p, "ini");
    p.write(
        "ini/submissions/accepted/square.py",
        "n = int(input())\nprint(n * n)\n",
    );
    let spin = "import time\nn = int(input())\nt = time.process_time()\n\
                while time.process_time() - t < 0.8:\n    pass\nprint(n * n)\n";
    p.write("ini/submissions/time_limit_exceeded/spin.py", spin);
    let (code, text) = verify_package(&p, &p.path("ini"));
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("time limit 0.3 s from domjudge-problem.ini (`timelimit`)"),
        "{text}"
    );
    assert!(
        text.contains("domjudge-problem.ini: `probid`, `color` not used"),
        "{text}"
    );
    assert!(text.contains("ok  spin.py"), "{text}");
    // problem.yaml's own limit comes first: 2 s, and the spin is AC.
    p.write(
        "ini/problem.yaml",
        "problem_format_version: 2023-07\nname: Ini\nlimits: {time_limit: 2}\n",
    );
    let r = judge_package(
        &p,
        &p.path("ini"),
        &p.path("ini/submissions/time_limit_exceeded/spin.py"),
    );
    assert_eq!(verdicts(&r), ["AC", "AC", "AC"], "{r}");
    let (_, text) = verify_package(&p, &p.path("ini"));
    assert!(
        text.contains("domjudge-problem.ini: `timelimit = 0.3` not used: problem.yaml's `limits.time_limit` (2 s) comes first"),
        "{text}"
    );
}

/// A package from before Python 3 and BAPCtools' other extensions: the
/// reference in Python 3, then Python 2 by `.py2`, by its `#!` line and
/// by its syntax alone, Python 3 as `.py3`, and a shell script.
fn old_python_package(p: &Project) -> PathBuf {
    p.write("old/problem.yaml", "name: Old\n");
    p.write("old/.timelimit", "2\n");
    square_tests(p, "old");
    for (file, text) in [
        ("a_square.py", "n = int(input())\nprint(n * n)\n"),
        ("p2_ext.py2", "n = int(raw_input())\nprint n * n\n"),
        (
            "p2_shebang.py",
            "#!/usr/bin/env python2\nn = int(raw_input())\nprint n * n\n",
        ),
        ("p2_plain.py", "n = int(raw_input())\nprint n * n\n"),
        ("p3.py3", "n = int(input())\nprint(n * n)\n"),
        ("script.sh", "read n\necho $((n * n))\n"),
    ] {
        p.write(&format!("old/submissions/accepted/{file}"), text);
    }
    p.path("old")
}

/// `grundy verify PACKAGE` with `path` as its `PATH`.
fn verify_with_path(p: &Project, pkg: &Path, path: &OsString) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["verify", &pkg.to_string_lossy(), "--problems"])
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(p.path("cache"))
        .env("NO_COLOR", "1")
        .env("PATH", path)
        .output()
        .expect("run grundy");
    (
        out.status.code(),
        format!(
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Whether `program` is a Python 2 interpreter that starts (pyenv's
/// `python2` shim is on `PATH` whether or not one is selected).
fn is_python2(program: &Path) -> bool {
    Command::new(program)
        .args(["-c", "import sys; sys.exit(sys.version_info[0] != 2)"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A Python 2 interpreter on `PATH` that starts (`.ci/setup.sh` puts one
/// there where pyenv keeps one under root's home, which the judged user
/// cannot enter).
fn find_python2() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .flat_map(|d| ["python2", "python2.7"].map(|n| d.join(n)))
        .filter(|p| p.is_file())
        .find(|p| is_python2(p))
}

#[test]
fn python2_is_judged_where_an_interpreter_is() {
    let Some(python2) = find_python2() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no Python 2 interpreter on PATH: run `bash .ci/setup.sh` (it links pyenv's 2.7 as /usr/local/bin/python2), or install Python 2.7 and put `python2` on PATH"
        );
        eprintln!("skipped: no Python 2 interpreter here");
        return;
    };
    let p = Project::empty();
    let pkg = old_python_package(&p);
    let bin = p.path("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::os::unix::fs::symlink(&python2, bin.join("python2")).expect("link");
    let mut dirs = vec![bin];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let path = std::env::join_paths(dirs).expect("PATH");
    let (code, text) = verify_with_path(&p, &pkg, &path);
    assert_eq!(code, Some(0), "{text}");
    for file in [
        "p2_ext.py2",
        "p2_shebang.py",
        "p2_plain.py",
        "p3.py3",
        "script.sh",
    ] {
        assert!(text.contains(&format!("ok  {file}")), "{file}:\n{text}");
    }
    assert!(
        text.contains(
            "note: p2_plain.py: judged as Python 2: it is not Python 3 (a print statement"
        ),
        "{text}"
    );
}

#[test]
fn python2_without_an_interpreter_is_said_plainly() {
    let p = Project::empty();
    let pkg = old_python_package(&p);
    // The machine's PATH without any folder holding a Python 2 that starts.
    let dirs: Vec<PathBuf> = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .filter(|d| {
            !["python2", "python2.7"]
                .iter()
                .any(|n| d.join(n).is_file() && is_python2(&d.join(n)))
        })
        .collect();
    let path = std::env::join_paths(dirs).expect("PATH");
    let (code, text) = verify_with_path(&p, &pkg, &path);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("p2_ext.py2") && text.contains("skipped: Python 2 code (`.py2`, or its first line names python2); no Python 2 interpreter here"),
        "{text}"
    );
    assert!(
        text.contains("skipped: Python 2 code (a print statement (SyntaxError: Missing parentheses in call to 'print'"),
        "{text}"
    );
    assert!(!text.contains("Traceback"), "{text}");
    assert!(text.contains("ok  p3.py3"), "{text}");
    assert!(text.contains("ok  script.sh"), "{text}");
}

/// A scoring olympiad's layout: each group holds the earlier groups'
/// tests through links, a file link and a whole folder linked.
#[test]
fn tests_linked_into_later_groups_count_in_each() {
    let p = Project::empty();
    p.write(
        "olymp/problem.yaml",
        "problem_format_version: 2023-07\nname: Olymp\nlimits: {time_limit: 2}\n",
    );
    p.write("olymp/data/secret/group1/1.in", "3\n");
    p.write("olymp/data/secret/group1/1.ans", "9\n");
    p.write("olymp/data/secret/group2/2.in", "12\n");
    p.write("olymp/data/secret/group2/2.ans", "144\n");
    let link = |target: &str, at: &str| {
        std::os::unix::fs::symlink(target, p.path(at)).expect("link");
    };
    link("../group1/1.in", "olymp/data/secret/group2/1.in");
    link("../group1/1.ans", "olymp/data/secret/group2/1.ans");
    // A later group that is an earlier one's folder, linked whole.
    link("group2", "olymp/data/secret/group3");
    p.write(
        "olymp/submissions/accepted/square.py",
        "n = int(input())\nprint(n * n)\n",
    );
    p.write(
        "olymp/submissions/wrong_answer/small.py",
        "n = int(input())\nprint(n * n if n < 10 else 0)\n",
    );
    let r = judge_package(
        &p,
        &p.path("olymp"),
        &p.path("olymp/submissions/accepted/square.py"),
    );
    // group1: 1; group2: 1 (linked) and 2; group3: both again.
    assert_eq!(verdicts(&r), ["AC"; 5], "{r}");
    let groups: Vec<&str> = r["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter_map(|t| t["group"].as_str())
        .collect();
    assert_eq!(
        groups,
        ["group1", "group2", "group2", "group3", "group3"],
        "{r}"
    );
    let (code, text) = verify_package(&p, &p.path("olymp"));
    assert_eq!(code, Some(0), "{text}");
    // A folder linked from outside the package: refused, naming the link.
    let outside = p.path("elsewhere");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::write(outside.join("9.in"), "5\n").expect("write");
    std::fs::write(outside.join("9.ans"), "25\n").expect("write");
    link("../../../elsewhere", "olymp/data/secret/group4");
    let (code, text) = verify_package(&p, &p.path("olymp"));
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("data/secret/group4 is a link to ../../../elsewhere, outside the package"),
        "{text}"
    );
}

#[test]
fn a_folder_name_with_a_dash_is_read_and_said_not_a_short_name() {
    let p = Project::empty();
    p.write("big-sq/problem.yaml", "name: Square\n");
    p.write("big-sq/.timelimit", "1\n");
    square_tests(&p, "big-sq");
    p.write(
        "big-sq/submissions/accepted/a.py",
        "n = int(input())\nprint(n * n)\n",
    );
    let (code, text) = verify_package(&p, &p.path("big-sq"));
    // grundy's own problem ids have dashes: read, with a note saying what
    // problemtools makes of it.
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(
            "note: the package folder name `big-sq` is not a short name the format allows (`[a-z0-9]+`): grundy reads it as the problem id, problemtools' verifyproblem refuses it (\"Invalid shortname\"); name the folder `bigsq`"
        ),
        "{text}"
    );
}
