//! A compile cache shared by graders on several nodes (a folder on a
//! shared file system, docs/batch.md): two graders filling one empty cache
//! at the same moment both finish, agree, leave no half-written entry, and
//! a third grader then compiles nothing.
//!
//! The compile step is a shell line that logs each run and then waits
//! until the other grader has started compiling too (a barrier on the log,
//! bounded), so the two really write the same entry at once however the
//! machine schedules them.

mod batch_support;

use std::path::Path;
use std::process::Command;

use batch_support::*;

const STUDENTS: usize = 4;

fn grade(cfg: &Path, class: &Path, out: &Path, cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grundy"));
    c.arg("grade")
        .arg(class)
        .args(["--problem", "xor", "--jobs", "1", "--sandbox", "off"])
        .arg("--out")
        .arg(out)
        .arg("--languages")
        .arg(cfg)
        .arg("--problems")
        .arg(problems())
        .arg("--cache")
        .arg(cache)
        .env("NO_COLOR", "1");
    c
}

#[test]
fn two_graders_fill_one_shared_cache_at_once() {
    let t = tempfile::tempdir().expect("tempdir");
    let log = t.path().join("compiles.log");
    // The sandbox would rightly stop the compile step's write to the log,
    // hence `--sandbox off` above.
    let cfg = t.path().join("langs.yaml");
    let step = format!(
        "echo run >> {log} && i=0 && while [ $(wc -l < {log}) -lt 2 ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done && cc -O2 -o {{bin}} {{src}}",
        log = log.display()
    );
    write(
        &cfg,
        &format!(
            "languages:\n  - id: logged-c\n    extensions: [lc]\n    source_name: main.c\n    compile: [\"/bin/sh\", \"-c\", {step:?}]\n    run: [\"{{bin}}\"]\n"
        ),
    );
    let class = t.path().join("class");
    for s in 0..STUDENTS {
        // Distinct files: each is a cache entry of its own.
        write(
            &class.join(format!("student{s}.lc")),
            &format!("{}\n/* {s} */\n", template("xor_ok.c")),
        );
    }
    let cache = t.path().join("shared-cache");
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    let first = grade(&cfg, &class, &a, &cache).spawn().expect("spawn");
    let second = grade(&cfg, &class, &b, &cache).spawn().expect("spawn");
    for (name, child) in [("first", first), ("second", second)] {
        let out = child.wait_with_output().expect("wait");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name} grader: {}",
            text(&out.stderr)
        );
    }
    let compiles = || {
        std::fs::read_to_string(&log)
            .map(|s| s.lines().count())
            .unwrap_or(0)
    };
    let filled = compiles();
    // The barrier held both graders in their first compile, of the same
    // file: both wrote that entry.
    assert!(
        (STUDENTS + 1..=2 * STUDENTS).contains(&filled),
        "{filled} compiles for {STUDENTS} files by two graders"
    );
    assert_same_reports(&a, &b);
    // Nothing half-written is left where work in progress goes.
    let leftovers: Vec<_> = std::fs::read_dir(cache.join("tmp"))
        .expect("cache tmp")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // Every entry is complete: a third grader compiles nothing.
    let third = grade(&cfg, &class, &t.path().join("c"), &cache)
        .output()
        .expect("run");
    assert_eq!(third.status.code(), Some(0), "{}", text(&third.stderr));
    assert_eq!(compiles(), filled, "the third grader compiled again");
    assert_same_reports(&a, &t.path().join("c"));
}
