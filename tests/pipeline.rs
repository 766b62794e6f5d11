//! Compiling a class faster (docs/batch.md, "Compiling a class"): identical
//! sources judged once, compiles working ahead of the tests, and a
//! precompiled `bits/stdc++.h`. Real compilers, real runs.

mod common;

use std::path::{Path, PathBuf};

use common::{Isolated, Project};
use serde_json::Value;

/// Three groups of three tests: the answer is twice the input.
const SPEC: &str = "id: double
title: Double a pile
source: tests
limits: {time: 2s, memory: 64MiB, output: 1MiB}
checker: tokens
groups:
  - name: first
    tests:
      - {input: \"1\\n\", answer: \"2\\n\"}
      - {input: \"2\\n\", answer: \"4\\n\"}
      - {input: \"3\\n\", answer: \"6\\n\"}
  - name: second
    tests:
      - {input: \"4\\n\", answer: \"8\\n\"}
      - {input: \"5\\n\", answer: \"10\\n\"}
      - {input: \"6\\n\", answer: \"12\\n\"}
  - name: third
    tests:
      - {input: \"7\\n\", answer: \"14\\n\"}
      - {input: \"8\\n\", answer: \"16\\n\"}
      - {input: \"9\\n\", answer: \"18\\n\"}
";

/// The doubling problem, run with a compile cache of its own: the tests
/// count runs and compare reports.
type Setup = Isolated;

impl Setup {
    fn new() -> Setup {
        Isolated(Project::with_problem("double", SPEC, "# Double\n"))
    }

    /// `grade CLASS --problem double --out OUT EXTRA`, checked to finish.
    fn grade(&self, pre: &[&str], class: &str, out: &str, extra: &[&str]) -> Value {
        let (c, o) = (self.path(class), self.path(out));
        let (c, o) = (c.to_string_lossy(), o.to_string_lossy());
        let mut args = pre.to_vec();
        args.extend(["grade", &c, "--problem", "double", "--out", &o]);
        args.extend_from_slice(extra);
        let run = self.run(&args);
        assert!(
            matches!(run.status.code(), Some(0 | 1)),
            "grade failed: {:?}\nstdout:\n{}\nstderr:\n{}",
            run.status,
            text(&run.stdout),
            text(&run.stderr)
        );
        let report = std::fs::read(self.path(out).join("report.json")).expect("report.json");
        serde_json::from_slice(&report).expect("report.json is JSON")
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `student:verdict:submission` of every result.
fn results(report: &Value) -> Vec<String> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            format!(
                "{}:{}:{}",
                r["student"].as_str().unwrap_or("?"),
                r["verdict"].as_str().unwrap_or("?"),
                r["submission"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

/// A C program printing twice its input (`0` when `bad` holds), that also
/// appends `mark` to `counter` each time it runs.
fn counting(counter: &Path, mark: &str, bad: &str) -> String {
    format!(
        "#include <stdio.h>\nint main(void){{FILE*f=fopen(\"{}\",\"a\");if(f){{fputs(\"{mark}\\n\",f);fclose(f);}}\
         long n;if(scanf(\"%ld\",&n)!=1)return 1;if({bad})puts(\"0\");else printf(\"%ld\\n\",2*n);return 0;}}\n",
        counter.display()
    )
}

/// Identical files are judged once: the program runs once per test, not
/// once per student, and every student gets the verdict. The runs are
/// counted by the program itself, which appends to a file outside its
/// folder: possible only without the sandbox, which the test turns off
/// (the engine is the same either way).
#[test]
fn identical_sources_run_once_and_every_student_gets_the_verdict() {
    let s = Setup::new();
    let counter = s.path("runs.txt");
    let right = counting(&counter, "right", "0");
    let wrong = counting(&counter, "wrong", "n==1");
    for student in ["ann", "bob", "cat"] {
        s.write(&format!("class/{student}.c"), &right);
    }
    for student in ["dan", "eve"] {
        s.write(&format!("class/{student}.c"), &wrong);
    }
    let off = ["--sandbox", "off", "--allow-weak-sandbox"];
    let report = s.grade(&off, "class", "out", &["--jobs", "1"]);
    assert_eq!(
        results(&report),
        [
            "ann:AC:ann.c",
            "bob:AC:bob.c",
            "cat:AC:cat.c",
            "dan:WA:dan.c",
            "eve:WA:eve.c"
        ]
    );
    let runs = std::fs::read_to_string(&counter).expect("the programs ran");
    let count = |mark: &str| runs.lines().filter(|l| *l == mark).count();
    // Nine tests for the right program; the wrong one fails the first test
    // of its group and skips the two after it.
    assert_eq!((count("right"), count("wrong")), (9, 7), "{runs}");
    for r in report["results"].as_array().expect("results") {
        let expected = if r["verdict"] == "AC" { 9 } else { 7 };
        assert_eq!(r["tests"].as_array().map(Vec::len), Some(expected), "{r:#}");
    }
    let grades = std::fs::read_to_string(s.path("out/grades.csv")).expect("grades.csv");
    for student in ["ann", "bob", "cat"] {
        assert!(grades.contains(&format!("{student},100,100")), "{grades}");
    }
    for student in ["dan", "eve"] {
        assert!(
            grades.contains(&format!("{student},66.667,66.667")),
            "{grades}"
        );
    }
    // Each student has a record of their own: a resumed run judges nothing.
    let journal = std::fs::read_to_string(s.path("out/journal.jsonl")).expect("journal");
    assert_eq!(journal.lines().count(), 5, "{journal}");
    s.grade(&off, "class", "out", &["--jobs", "1", "--resume"]);
    let again = std::fs::read_to_string(&counter).expect("counter");
    assert_eq!(again, runs, "a resumed run ran programs again");
}

/// With one test at a time, results reach the journal in the class's
/// order, compile errors included, although compiles run ahead of the
/// tests on another thread.
#[test]
fn compiles_run_ahead_but_results_come_in_order() {
    let s = Setup::new();
    let right = "#include <stdio.h>\nint main(void){long n;if(scanf(\"%ld\",&n)!=1)return 1;printf(\"%ld\\n\",2*n);return 0;}\n";
    let students = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"];
    for (i, student) in students.iter().enumerate() {
        // Every file different: each is compiled.
        let text = if i % 3 == 1 {
            format!("int main(void) {{ return {student} }}\n")
        } else {
            format!("/* {student} */\n{right}")
        };
        s.write(&format!("class/{student}.c"), &text);
    }
    s.grade(&[], "class", "out", &["--jobs", "1"]);
    let journal = std::fs::read_to_string(s.path("out/journal.jsonl")).expect("journal");
    let order: Vec<String> = journal
        .lines()
        .map(|l| {
            let r: Value = serde_json::from_str(l).expect("a journal line");
            format!(
                "{}:{}",
                r["student"].as_str().unwrap_or("?"),
                r["result"]["verdict"].as_str().unwrap_or("?")
            )
        })
        .collect();
    assert_eq!(
        order,
        [
            "a1:AC", "b2:CE", "c3:AC", "d4:AC", "e5:CE", "f6:AC", "g7:AC", "h8:CE"
        ]
    );
}

/// A C++ source that includes bits/stdc++.h is compiled with a header
/// precompiled into the cache, and is accepted.
///
/// That g++ really used the precompiled form is shown by replacing the
/// copy of the header next to it with one that cannot compile (`#error`):
/// a later source is still accepted, which it could not be had g++ read
/// the header's text.
#[test]
fn a_bits_stdcpp_source_is_accepted_with_the_precompiled_header() {
    let s = Setup::new();
    let source = |name: &str| {
        format!(
            "#include <bits/stdc++.h>\nusing namespace std;\n// {name}\nint main(){{ long long n; cin >> n; vector<long long> v{{n, n}}; cout << accumulate(v.begin(), v.end(), 0LL) << \"\\n\"; }}\n"
        )
    };
    s.write("first/ann.cpp", &source("ann"));
    let report = s.grade(&[], "first", "out1", &[]);
    assert_eq!(results(&report), ["ann:AC:ann.cpp"], "{report:#}");
    let gch: Vec<PathBuf> = walk(&s.path("cache/bin"))
        .into_iter()
        .filter(|p| p.ends_with("bits/stdc++.h.gch"))
        .collect();
    assert_eq!(gch.len(), 1, "one precompiled header in the cache: {gch:?}");
    let header = gch[0].with_file_name("stdc++.h");
    assert!(header.is_file(), "the header's copy sits next to it");
    std::fs::write(&header, "#error the precompiled header was not used\n").expect("write");
    s.write("second/bob.cpp", &source("bob"));
    let report = s.grade(&[], "second", "out2", &[]);
    assert_eq!(results(&report), ["bob:AC:bob.cpp"], "{report:#}");
    // A compile error is still one, and its message does not name the cache.
    s.write(
        "third/cat.cpp",
        "#include <bits/stdc++.h>\nint main(){ std::vector<int> v; v.no_such_member(); }\n",
    );
    let report = s.grade(&[], "third", "out3", &[]);
    assert_eq!(results(&report), ["cat:CE:cat.cpp"], "{report:#}");
    let log = report["results"][0]["compile"]["log"]
        .as_str()
        .unwrap_or_default();
    assert!(log.contains("no_such_member"), "{log}");
    assert!(!log.contains(&*s.path("cache").to_string_lossy()), "{log}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// An interrupted run that recorded one of two identical files: the
/// resumed run gives the other the recorded result (under its own student
/// and file) instead of running it again, and still judges what differs.
/// The interrupt is simulated by cutting the journal down to one record,
/// which is what a run stopped after its first record leaves.
#[test]
fn resume_reuses_the_record_of_an_identical_copy() {
    let s = Setup::new();
    let counter = s.path("runs.txt");
    let right = counting(&counter, "right", "0");
    s.write("class/ann.c", &right);
    s.write("class/bob.c", &right);
    s.write("class/cat.c", &counting(&counter, "wrong", "n==4"));
    let off = ["--sandbox", "off", "--allow-weak-sandbox"];
    let full = s.grade(&off, "class", "out", &["--jobs", "1"]);
    let expected = ["ann:AC:ann.c", "bob:AC:bob.c", "cat:WA:cat.c"];
    assert_eq!(results(&full), expected);
    let journal_path = s.path("out/journal.jsonl");
    let journal = std::fs::read_to_string(&journal_path).expect("journal");
    let ann: Vec<&str> = journal
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok_and(|r| r["student"] == "ann"))
        .collect();
    assert_eq!(ann.len(), 1, "{journal}");
    std::fs::write(&journal_path, format!("{}\n", ann[0])).expect("cut the journal");
    std::fs::remove_file(&counter).expect("reset the counter");

    let resumed = s.grade(&off, "class", "out", &["--jobs", "1", "--resume"]);
    assert_eq!(results(&resumed), expected);
    let runs = std::fs::read_to_string(&counter).unwrap_or_default();
    let count = |mark: &str| runs.lines().filter(|l| *l == mark).count();
    // cat is judged again (its group two stops at its first test); bob
    // is not run at all.
    assert_eq!((count("right"), count("wrong")), (0, 7), "{runs}");
    let journal = std::fs::read_to_string(&journal_path).expect("journal");
    let bob: Vec<Value> = journal
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|r| r["student"] == "bob")
        .collect();
    assert_eq!(bob.len(), 1, "bob has a record of his own: {journal}");
    assert_eq!(bob[0]["file"], "bob.c");
    assert_eq!(bob[0]["result"]["submission"], "bob.c");
    assert_eq!(bob[0]["result"]["verdict"], "AC");
    // The reports are those of the uninterrupted run.
    let grades = std::fs::read_to_string(s.path("out/grades.csv")).expect("grades.csv");
    assert!(grades.contains("bob,100,100"), "{grades}");
}
