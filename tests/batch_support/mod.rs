//! Shared fixtures of the batch tests: the test-only problems (few tests,
//! 200 ms limits), submission templates for every verdict, generated
//! classes, and report comparisons.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `tests/fixtures/batch`.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/batch")
}

pub fn problems() -> PathBuf {
    fixtures().join("problems")
}

pub fn template(name: &str) -> String {
    let path = fixtures().join("templates").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The compile cache shared by the batch tests (compiles are paid once).
pub fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("grundy-batch-cache")
}

/// `grundy ARGS --problems <fixtures> --cache <shared>`, not yet started.
pub fn command(args: &[&str]) -> Command {
    command_with_cache(args, &cache())
}

/// `grundy ARGS --problems <fixtures> --cache CACHE`, not yet started.
pub fn command_with_cache(args: &[&str], cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grundy"));
    c.args(args)
        .arg("--problems")
        .arg(problems())
        .arg("--cache")
        .arg(cache)
        .env("NO_COLOR", "1");
    c
}

pub fn run(args: &[&str]) -> Output {
    command(args).output().expect("run grundy")
}

/// `grundy contest DIR/contest.yaml --out OUT` and `extra` arguments.
pub fn run_contest(dir: &Path, out: &Path, extra: &[&str]) -> Output {
    let yaml = dir.join("contest.yaml");
    let (yaml, out) = (yaml.to_string_lossy(), out.to_string_lossy());
    let mut args = vec!["contest", &yaml, "--out", &out];
    args.extend_from_slice(extra);
    run(&args)
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// The template a student gets for a problem: mostly right, and every
/// verdict somewhere in a class of a few dozen.
pub fn pick(student: usize, problem: &str) -> (&'static str, String) {
    let offset = match problem {
        "xor" => 0,
        "sum" => 7,
        _ => 13,
    };
    let slot = (student * 7 + offset) % 20;
    // Python costs ~40 ms of start-up a run: a quarter of the right answers.
    let lang_c = student % 4 != 1;
    let ok = |p: &str| {
        if lang_c {
            ("c", format!("{p}_ok.c"))
        } else {
            ("py", format!("{p}_ok.py"))
        }
    };
    match slot {
        9 | 10 => ("c", "wa.c".into()),
        // A program that waits, not one that spins: a spinner's TLE message
        // names the CPU or the wall limit depending on the share of a core
        // it got, and a run resumed on a busier machine must say the same.
        11 => ("c", "sleep.c".into()),
        12 => ("py", "re.py".into()),
        13 => ("c", "ce.c".into()),
        14 => ("c", "mle.c".into()),
        15 => ("c", "ole.c".into()),
        16 => match problem {
            "parity" => ("c", "parity_pe.c".into()),
            "xor" => ("c", "xor_half.c".into()),
            _ => ("py", "sum_half.py".into()),
        },
        _ => ok(problem),
    }
}

pub const PROBLEMS: [&str; 3] = ["parity", "sum", "xor"];

/// A class in the folder layout: `students` students, each with a file per
/// problem, plus the trouble a real download has (an unknown extension, a
/// duplicate, an empty folder, a name that is not UTF-8).
pub fn make_class(dir: &Path, students: usize) {
    for s in 0..students {
        let who = format!("student{s:03}");
        for p in PROBLEMS {
            let (ext, t) = pick(s, p);
            write(&dir.join(&who).join(format!("{p}.{ext}")), &template(&t));
        }
    }
    write(&dir.join("zoe/notes.txt"), "my answers are in my head\n");
    write(&dir.join("zoe/xor.c"), &template("xor_ok.c"));
    write(&dir.join("yan/sum.c"), &template("sum_ok.c"));
    write(&dir.join("yan/sum.py"), &template("sum_ok.py"));
    std::fs::create_dir_all(dir.join("xavier")).expect("mkdir");
    use std::os::unix::ffi::OsStrExt;
    let bad = dir.join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    write(&bad.join("xor.c"), &template("xor_ok.c"));
}

/// The report files that must be byte for byte the same between two runs
/// of the same class.
pub const STABLE_REPORTS: [&str; 3] = ["grades.csv", "junit.xml", "report.html"];

/// report.json without what is measured (times, memory, and the figures
/// quoted in TLE and MLE messages): what two runs must agree on.
pub fn report_json_without_measurements(out: &Path) -> serde_json::Value {
    let path = out.join("report.json");
    let mut v: serde_json::Value = serde_json::from_slice(
        &std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .expect("report.json is JSON");
    if let Some(results) = v["results"].as_array_mut() {
        for r in results {
            if let Some(tests) = r["tests"].as_array_mut() {
                for t in tests {
                    let o = t.as_object_mut().expect("test object");
                    for k in ["time_ms", "wall_ms", "memory_kib"] {
                        o.remove(k);
                    }
                    if matches!(
                        o.get("verdict").and_then(|v| v.as_str()),
                        Some("TLE" | "MLE")
                    ) {
                        o.remove("message");
                    }
                }
            }
        }
    }
    v
}

/// Every file of `dir/feedback`, by name.
pub fn feedback(out: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(out.join("feedback"))
        .expect("feedback folder")
        .map(|e| {
            let e = e.expect("entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).expect("read"),
            )
        })
        .collect();
    files.sort();
    files
}

/// Asserts that two output folders hold the same reports.
pub fn assert_same_reports(a: &Path, b: &Path) {
    for name in STABLE_REPORTS {
        let x =
            std::fs::read(a.join(name)).unwrap_or_else(|e| panic!("{}/{name}: {e}", a.display()));
        let y =
            std::fs::read(b.join(name)).unwrap_or_else(|e| panic!("{}/{name}: {e}", b.display()));
        assert!(
            x == y,
            "{name} differs between {} and {}:\n{}",
            a.display(),
            b.display(),
            first_difference(&x, &y)
        );
    }
    assert_eq!(feedback(a), feedback(b), "feedback files differ");
    assert_eq!(
        report_json_without_measurements(a),
        report_json_without_measurements(b),
        "report.json differs beyond measurements"
    );
}

/// The first line where two texts differ, both ways, for a failure message
/// that says what changed (a verdict that flipped, a score).
fn first_difference(x: &[u8], y: &[u8]) -> String {
    let (x, y) = (String::from_utf8_lossy(x), String::from_utf8_lossy(y));
    let mut a = x.lines();
    let mut b = y.lines();
    for n in 1.. {
        match (a.next(), b.next()) {
            (None, None) => break,
            (l, r) if l != r => {
                return format!(
                    "line {n}:\n  - {}\n  + {}",
                    l.unwrap_or("(end)"),
                    r.unwrap_or("(end)")
                );
            }
            _ => {}
        }
    }
    "only in line endings".into()
}

/// Lines of a journal (complete ones).
pub fn journal_lines(out: &Path) -> usize {
    std::fs::read(out.join("journal.jsonl"))
        .map(|b| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap_or(0)
}
