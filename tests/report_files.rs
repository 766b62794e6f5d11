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
    assert!(of("carol\t").1.contains("xor: AC"), "{files:#?}");
    assert_ne!(of("carol\t").0, "carol_.txt");
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
