//! `grundy grade` end to end with real processes: a class of a hundred,
//! killed with SIGKILL part-way and resumed to the very reports of an
//! uninterrupted run; Ctrl-C leaving no process and no temporary folder;
//! the layouts and the trouble a real download has.

mod batch_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use batch_support::*;

const STUDENTS: usize = 100;

#[test]
fn a_class_killed_part_way_resumes_to_the_reports_of_an_uninterrupted_run() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    make_class(&class, STUDENTS);
    let tmp = t.path().join("tmp");
    std::fs::create_dir_all(&tmp).expect("mkdir");
    let (whole, killed) = (t.path().join("whole"), t.path().join("killed"));
    let arg = |p: &Path| p.to_string_lossy().into_owned();

    // An uninterrupted run.
    let started = Instant::now();
    let out = command(&["grade", &arg(&class), "--out", &arg(&whole), "--jobs", "2"])
        .env("TMPDIR", &tmp)
        .output()
        .expect("run grundy");
    let uninterrupted = started.elapsed();
    assert_eq!(out.status.code(), Some(1), "stderr:\n{}", text(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(whole.join("report.json")).expect("report.json"))
            .expect("JSON");
    let results = report["results"].as_array().expect("results");
    assert_eq!(
        results.len(),
        STUDENTS * 3 + 1,
        "every file judged once (+ zoe's xor.c)"
    );
    let mut seen: Vec<&str> = results
        .iter()
        .filter_map(|r| r["verdict"].as_str())
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        ["AC", "CE", "MLE", "OLE", "PE", "RE", "TLE", "WA"],
        "every verdict appears"
    );
    assert!(
        results.iter().all(|r| r["student"].is_string()),
        "each result names its student"
    );
    let csv = std::fs::read_to_string(whole.join("grades.csv")).expect("grades.csv");
    assert_eq!(csv.lines().next(), Some("student,parity,sum,xor,total"));
    assert_eq!(
        csv.lines().count(),
        1 + STUDENTS + 3,
        "a row per student, xavier, yan and zoe; not the bad name"
    );
    let issues: Vec<&str> = report["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter_map(|i| i["kind"].as_str())
        .collect();
    for kind in ["unknown-extension", "duplicate", "empty-folder", "bad-name"] {
        assert!(issues.contains(&kind), "{kind} reported: {issues:?}");
    }
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("zoe/notes.txt: unknown extension"),
        "{stderr}"
    );

    // The same class, killed with SIGKILL once some results are in.
    let mut child = command(&["grade", &arg(&class), "--out", &arg(&killed), "--jobs", "2"])
        .env("TMPDIR", &tmp)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start grundy");
    let deadline = Instant::now() + Duration::from_secs(120);
    while journal_lines(&killed) < 40 {
        assert!(Instant::now() < deadline, "no progress in the journal");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "finished before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reap");
    let judge_folders = || {
        std::fs::read_dir(users_folder(&tmp))
            .expect("the user's folder in TMPDIR")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("grundy-"))
            .count()
    };
    assert_eq!(judge_folders(), 1, "the killed judge's working folder");
    let kept = journal_lines(&killed);
    assert!(kept < STUDENTS * 3, "killed part-way ({kept} lines)");
    assert!(
        !killed.join("grades.csv").exists(),
        "no reports from an interrupted run"
    );

    // Resume: only what is missing is judged, and the reports are the same.
    let out = command(&[
        "grade",
        &arg(&class),
        "--out",
        &arg(&killed),
        "--jobs",
        "2",
        "--resume",
    ])
    .env("TMPDIR", &tmp)
    .output()
    .expect("resume");
    assert_eq!(out.status.code(), Some(1), "stderr:\n{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("resuming:"), "{stderr}");
    let judged_again = stderr.lines().filter(|l| l.starts_with('[')).count();
    assert_eq!(
        kept + judged_again,
        STUDENTS * 3 + 1,
        "nothing judged twice:\n{stderr}"
    );
    assert_eq!(
        journal_lines(&killed),
        STUDENTS * 3 + 1,
        "one journal line per submission"
    );
    assert_same_reports(&whole, &killed);
    assert_eq!(
        judge_folders(),
        0,
        "the resumed judge removes the killed one's folder, then its own"
    );
    eprintln!("uninterrupted run: {:.1} s", uninterrupted.as_secs_f64());
}

#[test]
fn without_resume_an_earlier_run_is_not_overwritten() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    write(&class.join("ann.py"), &template("xor_ok.py"));
    // The output folder inside the class folder is never taken for a student.
    let out_dir = class.join("grundy-out");
    let o = out_dir.to_string_lossy().into_owned();
    let c = class.to_string_lossy().into_owned();
    let first = run(&["grade", &c, "--problem", "xor", "--out", &o]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    // The refusal comes first and alone, not after a line for every file
    // of the class that is not judged.
    write(&class.join("notes.txt"), "to do\n");
    let second = run(&["grade", &c, "--problem", "xor", "--out", &o]);
    assert_eq!(second.status.code(), Some(2));
    let said = text(&second.stderr);
    assert!(said.contains("--resume"), "{said}");
    assert!(!said.contains("notes.txt"), "{said}");
    assert_eq!(said.trim_end().lines().count(), 1, "{said}");
    std::fs::remove_file(class.join("notes.txt")).expect("rm");
    let again = run(&["grade", &c, "--problem", "xor", "--out", &o, "--resume"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let csv = std::fs::read_to_string(out_dir.join("grades.csv")).expect("csv");
    assert_eq!(csv, "student,xor,total\nann,100,100\n");
    assert!(
        text(&again.stderr).contains("resuming: 1 of 1"),
        "{}",
        text(&again.stderr)
    );
}

#[test]
fn one_file_per_student_and_feedback_levels() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    write(&class.join("ann.c"), &template("xor_ok.c"));
    write(&class.join("ben.c"), &template("xor_half.c"));
    write(&class.join("cy.c"), &template("ce.c"));
    write(&class.join("dee/main.py"), &template("xor_ok.py"));
    let c = class.to_string_lossy().into_owned();
    let levels = [("verdict", "ben"), ("groups", "ben"), ("first-fail", "ben")];
    let mut texts = Vec::new();
    for (level, student) in levels {
        let out_dir = t.path().join(level);
        let o = out_dir.to_string_lossy().into_owned();
        let out = run(&[
            "grade",
            &c,
            "--problem",
            "xor",
            "--out",
            &o,
            "--feedback",
            level,
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        texts.push(
            std::fs::read_to_string(out_dir.join("feedback").join(format!("{student}.txt")))
                .expect("feedback"),
        );
        let csv = std::fs::read_to_string(out_dir.join("grades.csv")).expect("csv");
        assert_eq!(
            csv,
            "student,xor,total\nann,100,100\nben,50,50\ncy,0,0\ndee,100,100\n"
        );
    }
    let [verdict, groups, first_fail] = &texts[..] else {
        unreachable!()
    };
    assert!(
        verdict.contains("xor: WA (wrong answer), 50/100"),
        "{verdict}"
    );
    assert!(
        !verdict.contains("small"),
        "verdict level names no group:\n{verdict}"
    );
    assert!(
        groups.contains("small            failed: passed 0 of 1 test, 0/50 points"),
        "{groups}"
    );
    assert!(
        groups.contains("large            passed 1 of 1 test, 50/50 points"),
        "{groups}"
    );
    assert!(!groups.contains("input:"), "{groups}");
    assert!(
        first_fail.contains("First failing test: small-1 (WA)"),
        "{first_fail}"
    );
    assert!(
        first_fail.contains("input:\n      1\n      5\n"),
        "{first_fail}"
    );
    // The compile log reaches the student, and is escaped in the HTML.
    let cy = std::fs::read_to_string(t.path().join("groups/feedback/cy.txt")).expect("cy");
    assert!(
        cy.contains("does not compile") && cy.contains("error"),
        "{cy}"
    );
    let html = std::fs::read_to_string(t.path().join("groups/report.html")).expect("html");
    assert!(
        html.contains("&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)"),
        "compile log escaped"
    );
    assert!(!html.contains("<script"), "no raw markup from a submission");
    let junit = std::fs::read_to_string(t.path().join("groups/junit.xml")).expect("junit");
    assert!(
        junit.contains("<testsuite name=\"xor\" tests=\"4\" failures=\"2\" errors=\"0\""),
        "{junit}"
    );
    assert!(
        junit.contains("<failure type=\"WA\" message=\"WA 50/100 at small-1:"),
        "{junit}"
    );
}

/// Processes (other than this test) whose command line or environment
/// mentions `marker`, as their command lines.
fn processes_mentioning(marker: &str) -> Vec<String> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let pid = e.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) || pid == me {
            continue;
        }
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let environ = std::fs::read(e.path().join("environ")).unwrap_or_default();
        let m = marker.as_bytes();
        let has = |b: &[u8]| b.windows(m.len()).any(|w| w == m);
        if has(&cmdline) || has(&environ) {
            found.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    found
}

#[test]
fn ctrl_c_stops_cleanly_leaving_no_process_and_no_temporary_folder() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    // Programs that sleep an hour under a 300 s time limit: when Ctrl-C
    // comes they are running, and only the interrupt can end them within
    // the generous bound this test allows.
    for s in 0..4 {
        write(
            &class.join(format!("s{s}/xor.c")),
            "#include <unistd.h>\nint main(void) { sleep(3600); return 0; }\n",
        );
    }
    let problems = t.path().join("problems");
    let xor = std::fs::read_to_string(fixtures().join("problems/xor/problem.yaml"))
        .expect("xor spec")
        .replace("time: 200ms", "time: 300s");
    assert!(xor.contains("time: 300s"), "the fixture's limits changed");
    write(&problems.join("xor/problem.yaml"), &xor);
    let tmp = t.path().join("tmp");
    let cache = t.path().join("cache");
    std::fs::create_dir_all(&tmp).expect("mkdir");
    let out_dir = t.path().join("out");
    let marker = t.path().to_string_lossy().into_owned();
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "grade",
            &class.to_string_lossy(),
            "--out",
            &out_dir.to_string_lossy(),
            "--jobs",
            "2",
            "--problems",
            &problems.to_string_lossy(),
            "--cache",
            &cache.to_string_lossy(),
        ])
        .env("NO_COLOR", "1")
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start grundy");
    // Wait until a submission runs: a program started from the cache's
    // compiled binaries (not a compiler working in the cache).
    let binaries = format!("{}/bin/", cache.display());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let running = processes_mentioning(&marker);
        if running.iter().any(|cmd| cmd.starts_with(&binaries)) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no submission started: {running:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: signalling the child we started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let stopped = Instant::now();
    let out = child.wait_with_output().expect("wait");
    let took = stopped.elapsed();
    eprintln!("stopped {took:?} after SIGINT");
    assert_eq!(
        out.status.code(),
        Some(130),
        "stderr:\n{}",
        text(&out.stderr)
    );
    // Not a speed check: a judge that waited for its runs would take the
    // runs' 300 s limit; any prompt stop, however loaded the machine, is
    // far below this bound.
    assert!(took < Duration::from_secs(150), "stopped in {took:?}");
    assert!(
        text(&out.stderr).contains("--resume"),
        "{}",
        text(&out.stderr)
    );
    let left = processes_mentioning(&marker);
    assert!(left.is_empty(), "processes left behind: {left:?}");
    let tmp_left = left_in_tmp(&tmp);
    assert!(
        tmp_left.is_empty(),
        "temporary files left behind: {tmp_left:?}"
    );
    let scratch: Vec<_> = std::fs::read_dir(cache.join("tmp"))
        .expect("cache tmp")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(
        scratch.is_empty(),
        "scratch folders left in the cache: {scratch:?}"
    );
    // The journal holds whole lines only.
    let journal = std::fs::read(out_dir.join("journal.jsonl")).unwrap_or_default();
    assert!(journal.is_empty() || journal.ends_with(b"\n"));
    // The runs stopped by the interrupt left no verdict (an IE or a TLE
    // there would be kept by --resume).
    let journal = String::from_utf8_lossy(&journal);
    assert!(
        !journal.contains("\"verdict\""),
        "an abandoned run was recorded:\n{journal}"
    );
}

#[test]
fn usage_errors_exit_2_and_say_what_to_do() {
    let t = tempfile::tempdir().expect("tempdir");
    let empty = t.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let out = t.path().join("out").to_string_lossy().into_owned();
    let cases: [(Vec<String>, &str); 4] = [
        (
            vec!["grade".into(), empty.to_string_lossy().into_owned()],
            "no submissions found",
        ),
        (
            vec![
                "grade".into(),
                t.path().join("missing").to_string_lossy().into_owned(),
            ],
            "not a folder",
        ),
        (
            vec![
                "grade".into(),
                empty.to_string_lossy().into_owned(),
                "--shard".into(),
                "3/3".into(),
            ],
            "0 ≤ K < N",
        ),
        (
            vec![
                "grade".into(),
                empty.to_string_lossy().into_owned(),
                "--problem".into(),
                "nope".into(),
            ],
            "no problem `nope`",
        ),
    ];
    for (args, says) in cases {
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.extend(["--out", &out]);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(says),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

/// The folder of `$TMPDIR` (`tmp`) in which the user's judges make their
/// working folders (see docs/batch.md).
fn users_folder(tmp: &Path) -> PathBuf {
    // SAFETY: geteuid has no preconditions.
    tmp.join(format!("grundy-{}", unsafe { libc::geteuid() }))
}

/// What is in `tmp`, the user's folder counting for what is in it.
fn left_in_tmp(tmp: &Path) -> Vec<PathBuf> {
    let own = users_folder(tmp);
    let mut left = Vec::new();
    for e in std::fs::read_dir(tmp).expect("tmp").flatten() {
        let path = e.path();
        if path == own && std::fs::symlink_metadata(&own).is_ok_and(|m| m.is_dir()) {
            left.extend(
                std::fs::read_dir(&own)
                    .expect("own")
                    .flatten()
                    .map(|e| e.path()),
            );
        } else {
            left.push(path);
        }
    }
    left
}
