//! What the report files of `grundy grade` are as files: the same bytes
//! whichever cache compiled the programs, messages that name each
//! student's file as it was submitted, the mode every tool gives a new file
//! under the user's umask, and one feedback file per student however alike
//! their names are once made file names.

mod batch_support;

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;

use batch_support::*;

/// Fails an `assert` on the first line of input (2 for every test of xor).
const ASSERTS: &str = "#include <assert.h>\n#include <stdio.h>\nint main(void) {\n    int n = 0;\n    scanf(\"%d\", &n);\n    assert(n < 2);\n    return 0;\n}\n";

/// Crashes with a traceback through a function.
const TRACEBACK: &str = "def f(n):\n    raise ValueError(n)\n\nf(int(input()))\n";

/// Does not compile.
const BROKEN: &str = "int main(void) {\n    return missing;\n}\n";

fn grade(class: &Path, out: &Path, cache: &Path, umask: Option<libc::mode_t>) -> String {
    let (class, out_s) = (class.to_string_lossy(), out.to_string_lossy());
    let mut c = command_with_cache(
        &[
            "grade",
            &class,
            "--problem",
            "xor",
            "--jobs",
            "2",
            "--out",
            &out_s,
        ],
        cache,
    );
    if let Some(mask) = umask {
        // SAFETY: umask is async-signal-safe and touches nothing else.
        unsafe {
            c.pre_exec(move || {
                libc::umask(mask);
                Ok(())
            });
        }
    }
    let o = c.output().expect("run grundy");
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    stderr
}

#[test]
fn another_cache_gives_the_same_reports_and_messages_name_the_submitted_file() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    write(&class.join("alice/nim.c"), ASSERTS);
    // The same content under another name: judged once, named as submitted.
    write(&class.join("bob/solve.c"), ASSERTS);
    write(&class.join("carol/xor.py"), TRACEBACK);
    write(&class.join("dave/mine.c"), BROKEN);
    let (a, b) = (t.path().join("out-a"), t.path().join("out-b"));
    let (cache_a, cache_b) = (t.path().join("cache-a"), t.path().join("a/deeper/cache-b"));
    grade(&class, &a, &cache_a, None);
    grade(&class, &b, &cache_b, None);
    assert_same_reports(&a, &b);

    let junit = std::fs::read_to_string(a.join("junit.xml")).expect("junit.xml");
    let feedback = |who: &str| {
        std::fs::read_to_string(a.join("feedback").join(format!("{who}.txt"))).expect("feedback")
    };
    let html = std::fs::read_to_string(a.join("report.html")).expect("report.html");
    for (what, text) in [("junit.xml", &junit), ("report.html", &html)] {
        let root = t.path().to_string_lossy();
        for internal in ["main.c", "main.py", "cache-a", "tmp/compile-", &root] {
            assert!(
                !text.contains(internal),
                "{what} holds {internal:?}:\n{text}"
            );
        }
    }
    assert!(junit.contains("nim.c:6: main: Assertion"), "{junit}");
    assert!(junit.contains("solve.c:6: main: Assertion"), "{junit}");
    assert!(html.contains("File &quot;xor.py&quot;, line 2"), "{html}");
    let dave = feedback("dave");
    assert!(
        dave.contains("mine.c:2:12: error") && !dave.contains("main.c"),
        "{dave}"
    );
}

#[test]
fn report_files_honour_the_umask() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    write(&class.join("alice/xor.c"), &template("xor_ok.c"));
    write(&class.join("bob/xor.c"), &template("wa.c"));
    for (mask, want) in [(0o022, 0o644), (0o027, 0o640)] {
        let out = t.path().join(format!("out-{mask:o}"));
        grade(&class, &out, &cache(), Some(mask));
        let mut seen = 0;
        for entry in std::fs::read_dir(&out).expect("out") {
            let entry = entry.expect("entry");
            if entry.file_type().expect("type").is_file() {
                let mode = entry.metadata().expect("stat").permissions().mode() & 0o777;
                assert_eq!(
                    mode,
                    want,
                    "{} under umask {mask:03o}",
                    entry.path().display()
                );
                seen += 1;
            }
        }
        for name in ["grades.csv", "junit.xml", "report.html", "report.json"] {
            assert!(out.join(name).is_file(), "{name}");
        }
        assert!(seen >= 4);
        let feedback = out.join("feedback/alice.txt");
        let mode = std::fs::metadata(&feedback)
            .expect("feedback")
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, want, "{}", feedback.display());
    }
}

#[test]
fn students_whose_names_meet_as_file_names_get_a_feedback_file_each() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    write(&class.join("carol\t/xor.c"), &template("xor_ok.c"));
    write(&class.join("carol_/xor.c"), &template("wa.c"));
    write(&class.join("Dan/xor.c"), &template("xor_ok.c"));
    write(&class.join("dan/xor.c"), &template("wa.c"));
    let out = t.path().join("out");
    grade(&class, &out, &cache(), None);
    let files = feedback(&out);
    assert_eq!(files.len(), 4, "{files:#?}");
    // Each student's file is theirs: it names them and their verdict.
    let of = |student: &str| -> &(String, String) {
        files
            .iter()
            .find(|(_, text)| text.starts_with(&format!("Feedback for {student}\n")))
            .unwrap_or_else(|| panic!("no feedback for {student:?}: {files:#?}"))
    };
    assert_eq!(of("carol_").0, "carol_.txt");
    assert!(of("carol_").1.contains("xor: WA"), "{files:#?}");
    // A name's tab is written as `\t`: a name is shown as one line.
    assert!(of("carol\\t").1.contains("xor: AC"), "{files:#?}");
    assert_ne!(of("carol\\t").0, "carol_.txt");
    assert!(of("Dan").1.contains("xor: AC") && of("dan").1.contains("xor: WA"));
    let lower: std::collections::BTreeSet<String> =
        files.iter().map(|(n, _)| n.to_lowercase()).collect();
    assert_eq!(lower.len(), 4, "names that differ only by case: {files:#?}");
    // The report links each student to their own file.
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    for student in ["carol_", "dan"] {
        let link = format!("href=\"feedback/{}\">{student}</a>", of(student).0);
        assert!(html.contains(&link), "{link} not in:\n{html}");
    }
}

/// Twice the input: two samples, a group of four tests.
const TWICE: &str = "id: twice
title: Twice a pile
source: tests
limits: {time: 2s, memory: 64MiB, output: 1MiB}
checker: tokens
samples:
  - {input: \"1\\n\", output: \"2\\n\"}
  - {input: \"2\\n\", output: \"4\\n\"}
groups:
  - name: main
    points: 100
    tests:
      - {input: \"3\\n\", answer: \"6\\n\"}
      - {input: \"4\\n\", answer: \"8\\n\"}
      - {input: \"5\\n\", answer: \"10\\n\"}
      - {input: \"6\\n\", answer: \"12\\n\"}
";

/// Twice the input, but 7 for 2 and 4.
const TWICE_WRONG: &str = "#include <stdio.h>\nint main(void){long long n;if(scanf(\"%lld\",&n)!=1)return 1;\
printf(\"%lld\\n\",n==2||n==4?7:2*n);return 0;}\n";

/// What a student reads: the sample they failed (samples are public), how
/// many tests of a group were skipped after its first failure, the
/// problem's memory limit apart from the language's allowance, and why
/// their only file was not judged.
#[test]
fn feedback_shows_the_failed_sample_the_skipped_tests_and_why_a_file_was_not_judged() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path();
    write(&dir.join("problems/twice/problem.yaml"), TWICE);
    write(&dir.join("problems/twice/statement.md"), "# Twice\n");
    let class = dir.join("class");
    write(&class.join("wes/twice.c"), TWICE_WRONG);
    write(&class.join("mia/twice.c"), &template("mle.c"));
    write(&class.join("dave/twice.txt"), "2 * n\n");
    let out = dir.join("out");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("grade")
        .arg(&class)
        .args(["--jobs", "1", "--out"])
        .arg(&out)
        .arg("--problems")
        .arg(dir.join("problems"))
        .arg("--cache")
        .arg(cache())
        .env("NO_COLOR", "1")
        .output()
        .expect("run grundy");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let read = |who: &str| {
        std::fs::read_to_string(out.join(format!("feedback/{who}.txt"))).expect("feedback")
    };
    let wes = read("wes");
    for line in [
        "  sample           failed: passed 1 of 2 tests, no points",
        "  main             failed: passed 1 of 4 tests, 2 skipped after the first failure, 0/100 points",
        "  Sample sample-2 (WA): line 1, token 1: expected \"4\", got \"7\"",
        "    input:\n      2\n    expected output:\n      4\n",
        "      -4\n      +7\n",
    ] {
        assert!(wes.contains(line), "{line:?} not in:\n{wes}");
    }
    let mia = read("mia");
    assert!(mia.contains("twice: MLE"), "{mia}");
    assert!(
        mia.contains("64.0 MiB and the 16.0 MiB allowed for the language's runtime"),
        "{mia}"
    );
    assert!(!mia.contains("80.0 MiB"), "{mia}");
    let dave = read("dave");
    assert!(
        dave.contains("twice: not judged\n  dave/twice.txt: no language has the extension .txt"),
        "{dave}"
    );
    assert!(!dave.contains("no submission found"), "{dave}");
}
