//! The progress of `grundy grade` when stderr is not a terminal (a log, CI,
//! a pipe): plain lines without escape codes, one per finished submission,
//! naming the student and the problem and how many of the planned tests
//! are done. Only the content is checked, never timing.

mod batch_support;

use batch_support::*;

/// `[k/n] VERDICT score  student problem (file)  tests d/t…` lines, as
/// (k, n, the rest).
fn finished_lines(stderr: &str) -> Vec<(usize, usize, String)> {
    stderr
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix('[')?;
            let (count, rest) = rest.split_once(']')?;
            let (k, n) = count.trim().split_once('/')?;
            Some((k.parse().ok()?, n.parse().ok()?, rest.to_string()))
        })
        .collect()
}

/// `tests d/t` in a finished line.
fn tests_done(line: &str) -> (usize, usize) {
    let after = line
        .split("  tests ")
        .nth(1)
        .unwrap_or_else(|| panic!("no `tests d/t` in {line:?}"));
    let figures = after.split(',').next().unwrap_or_default();
    let (d, t) = figures
        .split_once('/')
        .unwrap_or_else(|| panic!("no d/t in {line:?}"));
    (
        d.trim().parse().expect("tests done"),
        t.trim().parse().expect("tests planned"),
    )
}

#[test]
fn piped_progress_is_plain_lines_naming_each_submission_and_the_tests_done() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    write(&class.join("ann.c"), &template("xor_ok.c"));
    write(&class.join("ben.c"), &template("xor_half.c"));
    write(&class.join("cy.c"), &template("ce.c"));
    let (c, o) = (
        class.to_string_lossy().into_owned(),
        t.path().join("out").to_string_lossy().into_owned(),
    );
    let out = run(&["grade", &c, "--problem", "xor", "--out", &o, "--jobs", "1"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr:\n{stderr}");
    assert!(
        !stderr.contains('\x1b'),
        "escape codes in a pipe: {stderr:?}"
    );

    // The plan first: what is judged, how many tests.
    let start = stderr
        .lines()
        .find(|l| l.starts_with("grundy: judging "))
        .unwrap_or_else(|| panic!("no plan line:\n{stderr}"));
    assert!(
        start.contains("judging 3 submissions (") && start.contains("of 3 students on 1 problem,"),
        "{start}"
    );
    let planned: usize = start
        .split_once('(')
        .and_then(|(_, r)| r.split_once(' '))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no test count in {start:?}"));
    assert!(
        planned > 0 && planned.is_multiple_of(3),
        "three submissions of one problem: {start}"
    );

    // One line per finished submission, counted in order, each naming who.
    let lines = finished_lines(&stderr);
    assert_eq!(lines.len(), 3, "one line a submission:\n{stderr}");
    for (i, (k, n, _)) in lines.iter().enumerate() {
        assert_eq!((*k, *n), (i + 1, 3), "{stderr}");
    }
    let line_of = |student: &str| {
        lines
            .iter()
            .map(|(_, _, rest)| rest.as_str())
            .find(|rest| rest.contains(&format!("  {student} xor ({student}.c)")))
            .unwrap_or_else(|| panic!("no line for {student}:\n{stderr}"))
    };
    assert!(line_of("ann").trim_start().starts_with("AC "), "{stderr}");
    assert!(line_of("ben").trim_start().starts_with("WA "), "{stderr}");
    assert!(line_of("cy").trim_start().starts_with("CE "), "{stderr}");

    // Tests done only grow, out of the planned count, and end complete
    // (a submission that ran fewer, as a compile error, counts its plan).
    let done: Vec<(usize, usize)> = lines.iter().map(|(_, _, l)| tests_done(l)).collect();
    assert!(done.iter().all(|&(_, t)| t == planned), "{done:?}");
    assert!(done.windows(2).all(|w| w[0].0 < w[1].0), "{done:?}");
    assert_eq!(done.last().map(|d| d.0), Some(planned), "{done:?}");

    // The reports are still written, and listed on stdout.
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("graded 3 submissions of 3 students on 1 problem:"),
        "{stdout}"
    );
    assert!(stdout.contains("report.html"), "{stdout}");

    // Resumed with everything judged: it says so, and judges nothing.
    let again = run(&["grade", &c, "--problem", "xor", "--out", &o, "--resume"]);
    let stderr = text(&again.stderr);
    assert_eq!(again.status.code(), Some(1), "stderr:\n{stderr}");
    assert!(
        stderr.contains("resuming: 3 of 3 submissions already judged"),
        "{stderr}"
    );
    assert!(
        stderr.contains("grundy: judging 0 submissions (0 tests)"),
        "{stderr}"
    );
    assert!(finished_lines(&stderr).is_empty(), "{stderr}");
}

/// A consumer of the run's events that fails stops the run cleanly: the
/// report writer cannot put `report.html` where a folder is in the way, so
/// `grade` exits 3 (an internal error: the class was judged, the journal
/// kept) naming the file, and `--resume` finishes once the way is clear.
#[test]
fn a_report_that_cannot_be_written_stops_the_run_with_exit_3() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    write(&class.join("ann.c"), &template("xor_ok.c"));
    let out_dir = t.path().join("out");
    write(&out_dir.join("report.html/keep"), "in the way\n");
    let (c, o) = (
        class.to_string_lossy().into_owned(),
        out_dir.to_string_lossy().into_owned(),
    );
    let out = run(&["grade", &c, "--problem", "xor", "--out", &o]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "stderr:\n{stderr}");
    assert!(
        stderr.contains("cannot write") && stderr.contains("report.html"),
        "{stderr}"
    );
    assert_eq!(journal_lines(&out_dir), 1, "the result is kept");

    std::fs::remove_dir_all(out_dir.join("report.html")).expect("clear the way");
    let again = run(&["grade", &c, "--problem", "xor", "--out", &o, "--resume"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(out_dir.join("report.html").is_file());
}
