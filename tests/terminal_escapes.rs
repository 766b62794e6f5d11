//! What a submission, a package or a name in a class folder writes never
//! acts on the terminal of the person running grundy: escape sequences,
//! carriage returns, bells and newlines in names reach the output escaped
//! (`\u{1b}`), so they cannot clear the screen, retitle the window, or
//! forge a line ("AC 100/100") of their own. Each check is on the bytes
//! grundy wrote, with real programs judged in the sandbox.

mod batch_support;
mod common;

use std::path::Path;
use std::process::Output;

use common::Project;

/// What a hostile program or name writes: set the window title, clear the
/// screen, go home and print a fake verdict; a carriage return and a CSI
/// in its one-byte (C1) form; a right-to-left override.
const HOSTILE_C: &str = r"\033]0;pwned\007\033[2J\033[HAC 100/100\r\302\233";

/// Bytes a terminal acts on rather than shows.
fn acted_on(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut found = Vec::new();
    for (i, c) in text.char_indices() {
        let bad = (c.is_control() && c != '\n' && c != '\t') || c == '\u{202e}';
        if bad {
            let from = text[..i].char_indices().rev().nth(20).map_or(0, |(j, _)| j);
            found.push(format!("{c:?} after {:?}", &text[from..i]));
        }
    }
    found
}

fn assert_inert(what: &str, out: &Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let found = acted_on(bytes);
        assert!(
            found.is_empty(),
            "{what}: {stream} carries what a terminal acts on: {found:?}\n{}",
            String::from_utf8_lossy(bytes)
        );
    }
}

/// A player whose first token is the hostile text is `WA`, and the token
/// is quoted escaped.
#[test]
fn a_players_invalid_token_is_quoted_escaped() {
    let p = Project::empty();
    p.write(
        "problems/np/problem.yaml",
        "id: np\ntitle: Played\nsource: tests\nlimits:\n  time: 2s\ninteractor: nim-play\ngroups:\n  - name: g\n    points: 10\n    tests:\n      - input: \"1\\n2 1 2\\n\"\n",
    );
    let sub = p.write(
        "subs/evil.c",
        &format!(
            "#include <stdio.h>\nint main(void) {{ int t; if (scanf(\"%d\", &t) != 1) return 1; printf(\"{HOSTILE_C}\\n\"); fflush(stdout); while (scanf(\"%d\", &t) == 1) {{}} return 0; }}\n"
        ),
    );
    let out = p.grundy(&["judge", "np", &sub.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert_inert("judge of a played problem", &out);
    let text = common::stdout(&out);
    assert!(text.contains("WA"), "{text}");
    assert!(text.contains("\\u{1b}]0;pwned\\u{7}"), "quoted: {text}");
}

/// The first line a crashing program wrote to stderr is shown for `RE`,
/// escaped.
#[test]
fn the_stderr_of_a_crash_is_shown_escaped() {
    let p = Project::toy("");
    let sub = p.write(
        "subs/crash.c",
        &format!(
            "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {{ fputs(\"{HOSTILE_C} boom\\n\", stderr); fflush(stderr); abort(); }}\n"
        ),
    );
    let out = p.grundy(&["judge", "toy", &sub.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert_inert("judge of a crash", &out);
    let text = common::stdout(&out);
    assert!(text.contains("RE"), "{text}");
    assert!(text.contains("\\u{1b}[2J"), "{text}");
}

/// Names in a class folder (a student's folder, a file not judged) and a
/// contestant's name in a contest log are printed escaped in the progress
/// lines and the closing lines: a newline in a folder name does not start a
/// line of its own.
#[test]
fn names_in_grade_and_contest_lines_are_escaped() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    let forged = "AC    100  forged";
    let eve = format!("eve\u{1b}[2J\r\u{7}\n{forged}");
    batch_support::write(
        &class.join(&eve).join("xor.c"),
        &batch_support::template("xor_half.c"),
    );
    batch_support::write(&class.join(&eve).join("notes\u{1b}[31m.txt"), "to do\n");
    batch_support::write(
        &class.join("ann").join("xor.c"),
        &batch_support::template("xor_ok.c"),
    );
    let out = batch_support::run(&[
        "grade",
        &class.to_string_lossy(),
        "--out",
        &t.path().join("out").to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    assert_inert("grade", &out);
    for stream in [common::stdout(&out), common::stderr(&out)] {
        assert!(
            !stream.lines().any(|l| l.starts_with(forged)),
            "a forged line:\n{stream}"
        );
    }
    assert!(
        common::stderr(&out).contains("eve\\u{1b}[2J\\r\\u{7}\\nAC"),
        "{}",
        common::stderr(&out)
    );
    assert_feedback_inert(&t.path().join("out"));

    // A contest whose log names a team with the same bytes.
    let dir = t.path().join("contest");
    batch_support::write(&dir.join("subs/a.c"), &batch_support::template("xor_ok.c"));
    let team = "team\u{1b}]0;pwned\u{7}\u{1b}[2J";
    batch_support::write(
        &dir.join("log.csv"),
        &format!("time,contestant,problem,file\n0:10,{team},xor,subs/a.c\n"),
    );
    batch_support::write(
        &dir.join("contest.yaml"),
        "title: \"Cup\"\nproblems: [xor]\nlog: log.csv\n",
    );
    let out = batch_support::run_contest(&dir, &dir.join("out"), &[]);
    assert!(
        matches!(out.status.code(), Some(0..=2)),
        "{}",
        common::stderr(&out)
    );
    assert_inert("contest", &out);
}

/// The report files are for browsers and spreadsheets, not terminals; the
/// feedback a student may `cat` is text, so it is escaped too.
fn assert_feedback_inert(out: &Path) {
    let entries = std::fs::read_dir(out.join("feedback")).expect("feedback folder");
    for e in entries.flatten() {
        let bytes = std::fs::read(e.path()).expect("feedback");
        let found = acted_on(&bytes);
        assert!(found.is_empty(), "{}: {found:?}", e.path().display());
    }
}
