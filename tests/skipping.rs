//! docs/reference.md, "Tests that are not run": a group stops at its first failing
//! test unless `--all`; what is reported does not depend on `--jobs` or on
//! timing; `grade`'s reports say how many tests were skipped. Real
//! compilers, real runs.

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
    points: 30
    tests:
      - {input: \"1\\n\", answer: \"2\\n\"}
      - {input: \"2\\n\", answer: \"4\\n\"}
      - {input: \"3\\n\", answer: \"6\\n\"}
  - name: second
    points: 30
    tests:
      - {input: \"4\\n\", answer: \"8\\n\"}
      - {input: \"5\\n\", answer: \"10\\n\"}
      - {input: \"6\\n\", answer: \"12\\n\"}
  - name: third
    points: 40
    tests:
      - {input: \"7\\n\", answer: \"14\\n\"}
      - {input: \"8\\n\", answer: \"16\\n\"}
      - {input: \"9\\n\", answer: \"18\\n\"}
";

/// A C program printing twice its input, except `WRONG` on the inputs
/// for which `BAD` holds.
fn program(bad: &str) -> String {
    format!(
        "#include <stdio.h>\nint main(void){{long n;if(scanf(\"%ld\",&n)!=1)return 1;\
         if({bad})puts(\"0\");else printf(\"%ld\\n\",2*n);return 0;}}\n"
    )
}

/// The doubling problem, run with a compile cache of its own: the tests
/// count runs and compare reports.
type Setup = Isolated;

impl Setup {
    fn new() -> Setup {
        Isolated(Project::with_problem("double", SPEC, "# Double\n"))
    }

    /// `judge double FILE --json EXTRA`: the first result.
    fn judge(&self, file: &Path, extra: &[&str]) -> Value {
        self.judge_after(&[], file, extra)
    }

    /// [`Self::judge`] after the global `flags`.
    fn judge_after(&self, flags: &[&str], file: &Path, extra: &[&str]) -> Value {
        let f = file.to_string_lossy().into_owned();
        let mut args = flags.to_vec();
        args.extend(["judge", "double", &f, "--json"]);
        args.extend_from_slice(extra);
        let out = self.run(&args);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}); stdout:\n{}\nstderr:\n{}",
                text(&out.stdout),
                text(&out.stderr)
            )
        });
        v["results"][0].clone()
    }

    /// `grade CLASS --problem double --out OUT EXTRA` after the global
    /// `flags`; it must exit 1 (some student fails). Its `report.json`.
    fn grade(&self, flags: &[&str], class: &Path, out: &Path, extra: &[&str]) -> Value {
        let (c, o) = (class.to_string_lossy(), out.to_string_lossy());
        let mut args = flags.to_vec();
        args.extend(["grade", &c, "--problem", "double", "--out", &o]);
        args.extend_from_slice(extra);
        let run = self.run(&args);
        assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
        serde_json::from_slice(&std::fs::read(out.join("report.json")).expect("report.json"))
            .expect("JSON")
    }
}

/// The result of `student` in a `report.json`.
fn student(report: &Value, student: &str) -> Value {
    report["results"]
        .as_array()
        .and_then(|a| a.iter().find(|r| r["student"] == student).cloned())
        .unwrap_or_else(|| panic!("no result of {student}: {report:#}"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `name:verdict` of every reported test, in order.
fn reported(r: &Value) -> Vec<String> {
    r["tests"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|t| {
                    format!(
                        "{}:{}",
                        t["name"].as_str().unwrap_or("?"),
                        t["verdict"].as_str().unwrap_or("?")
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_wrong_answer_skips_the_rest_of_its_group_and_all_runs_everything() {
    let s = Setup::new();
    let file = s.write("subs/one.c", &program("n==1"));
    let r = s.judge(&file, &[]);
    assert_eq!(r["verdict"], "WA", "{r:#}");
    assert_eq!(r["skipped"], 2, "{r:#}");
    assert_eq!(
        reported(&r),
        [
            "first-1:WA",
            "second-1:AC",
            "second-2:AC",
            "second-3:AC",
            "third-1:AC",
            "third-2:AC",
            "third-3:AC"
        ],
        "{r:#}"
    );
    assert_eq!(r["score"], 70.0);

    let all = s.judge(&file, &["--all"]);
    assert_eq!(all["verdict"], "WA");
    assert_eq!(all["skipped"], 0, "{all:#}");
    assert_eq!(all["tests"].as_array().map(Vec::len), Some(9), "{all:#}");
    assert_eq!(
        all["tests"][1]["verdict"], "AC",
        "the group's other tests ran"
    );
    assert_eq!(all["score"], r["score"], "skipping never changes the score");

    // A failure in the middle of a group keeps the tests before it.
    let mid = s.write("subs/five.c", &program("n==5"));
    let r = s.judge(&mid, &[]);
    assert_eq!(r["skipped"], 1, "{r:#}");
    assert_eq!(
        &reported(&r)[2..6],
        ["first-3:AC", "second-1:AC", "second-2:WA", "third-1:AC"],
        "{r:#}"
    );
    assert_eq!(r["score"], 70.0);

    // The terminal view says so too.
    let f = mid.to_string_lossy().into_owned();
    let out = s.run(&["judge", "double", &f]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("[8 tests, 1 skipped,"),
        "{}",
        text(&out.stdout)
    );
}

/// With four tests at once, the later tests of a failed group may already
/// be running when the failure arrives: they are dropped, so the report is
/// the one of `--jobs 1`, every time.
#[test]
fn skipping_is_the_same_whatever_the_jobs() {
    let s = Setup::new();
    let wrong = s.write("subs/wrong.c", &program("1"));
    let first_of_each = s.write("subs/firsts.c", &program("n%3==1"));
    let last_two = s.write("subs/last_two.c", &program("n>=8"));
    for (file, skipped, score) in [
        (&wrong, 6, 0.0),
        (&first_of_each, 6, 0.0),
        (&last_two, 1, 60.0),
    ] {
        let one = s.judge(file, &["--jobs", "1"]);
        assert_eq!(one["skipped"], skipped, "{one:#}");
        assert_eq!(one["score"], score, "{one:#}");
        for _ in 0..3 {
            let four = s.judge(file, &["--jobs", "4"]);
            assert_eq!(reported(&four), reported(&one), "{four:#}");
            assert_eq!(four["skipped"], one["skipped"]);
            assert_eq!(four["verdict"], one["verdict"]);
        }
    }
}

#[test]
fn grade_reports_skipped_tests_everywhere_and_all_runs_them() {
    let s = Setup::new();
    s.write("class/ann.c", &program("0"));
    s.write("class/ben.c", &program("n==1"));
    let class = s.path("class");
    let out_dir = s.path("out");
    let report = s.grade(&[], &class, &out_dir, &["--jobs", "2"]);
    let by = |name: &str| student(&report, name);
    assert_eq!(by("ann")["skipped"], 0);
    assert_eq!(by("ben")["skipped"], 2, "{report:#}");
    assert_eq!(by("ben")["tests"].as_array().map(Vec::len), Some(7));
    let feedback =
        std::fs::read_to_string(out_dir.join("feedback/ben.txt")).expect("feedback of ben");
    assert!(
        feedback.contains("2 tests not run: a group stops at its first failing test"),
        "{feedback}"
    );
    let html = std::fs::read_to_string(out_dir.join("report.html")).expect("report.html");
    assert!(
        html.contains("data-skipped=\"2\">2 not run</span>"),
        "{html}"
    );
    let junit = std::fs::read_to_string(out_dir.join("junit.xml")).expect("junit.xml");
    assert!(
        junit.contains("2 tests skipped: their group had already failed"),
        "{junit}"
    );

    // --all: every test, and a resumed folder never reuses the cut results.
    let report = s.grade(&[], &class, &s.path("all"), &["--all"]);
    let ben = student(&report, "ben");
    assert_eq!(ben["skipped"], 0, "{ben:#}");
    assert_eq!(ben["tests"].as_array().map(Vec::len), Some(9));
    assert_eq!(ben["score"], 70.0);

    let report = s.grade(&[], &class, &out_dir, &["--resume", "--all"]);
    let ben = student(&report, "ben");
    assert_eq!(ben["skipped"], 0, "judged again with --all: {ben:#}");
}

/// A C program printing twice its input (`0` where `bad` holds) that also
/// appends a line to `counter` each time it runs: the runs are counted by
/// the program itself, which needs the sandbox off (the scheduling is the
/// same either way).
fn counting(counter: &Path, bad: &str) -> String {
    format!(
        "#include <stdio.h>\nint main(void){{FILE*f=fopen(\"{}\",\"a\");if(f){{fputs(\"run\\n\",f);fclose(f);}}\
         long n;if(scanf(\"%ld\",&n)!=1)return 1;if({bad})puts(\"0\");else printf(\"%ld\\n\",2*n);return 0;}}\n",
        counter.display()
    )
}

const SANDBOX_OFF: [&str; 3] = ["--sandbox", "off", "--allow-weak-sandbox"];

/// A program failing every test costs one run per group, also when one
/// submission's groups run side by side (`--jobs 2`): the other tests of a
/// group wait for its first one, which fails. Counted, not timed.
#[test]
fn a_program_failing_every_test_runs_once_per_group_whatever_the_jobs() {
    let s = Setup::new();
    // Writes a program failing every test at `rel`; the file its runs are
    // counted in.
    let failing = |rel: &str| -> (PathBuf, PathBuf) {
        // Outside the class folder, where `grade` would take it for a
        // submission.
        let counter = s.path(&format!("{}.runs", rel.replace('/', "-")));
        (s.write(rel, &counting(&counter, "n>0")), counter)
    };
    let runs = |counter: &Path| {
        let runs = std::fs::read_to_string(counter).expect("the program ran");
        runs.lines().count()
    };
    for jobs in ["1", "2"] {
        let (_, counter) = failing(&format!("class-{jobs}/ann.c"));
        let class = s.path(&format!("class-{jobs}"));
        let out = s.path(&format!("out-{jobs}"));
        s.grade(&SANDBOX_OFF, &class, &out, &["--jobs", jobs]);
        assert_eq!(runs(&counter), 3, "--jobs {jobs}");
        // The same through `judge`.
        let (file, counter) = failing(&format!("single-{jobs}/ben.c"));
        let r = s.judge_after(&SANDBOX_OFF, &file, &["--jobs", jobs]);
        assert_eq!(r["skipped"], 6, "{r:#}");
        assert_eq!(runs(&counter), 3, "judge --jobs {jobs}");
    }
}

/// `report.json` without what a run measures (times and memory): what
/// must not depend on the number of jobs.
fn decided(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in ["time_ms", "wall_ms", "memory_kib", "generated", "jobs"] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// A class judged with two tests at once, its submissions' groups side by
/// side, gets the reports of one test at a time: verdicts, the tests
/// reported and skipped, scores, the grade sheet and the feedback.
#[test]
fn a_class_graded_with_two_jobs_gets_the_reports_of_one() {
    let s = Setup::new();
    let students = [
        ("ann", program("0")),                                 // right
        ("ben", program("n==5")),                              // second test of group two
        ("cat", program("n==1")),                              // first test of group one
        ("dan", program("n%3==0")),                            // last test of every group
        ("eve", program("n>=4")),                              // every test of groups two and three
        ("fay", program("n==1")),                              // a copy of cat
        ("gus", "int main(void) { return x; }\n".to_string()), // CE
        ("hal", program("n==9||n==4")),
    ];
    for (name, src) in &students {
        s.write(&format!("class/{name}.c"), src);
    }
    let class = s.path("class");
    let mut reports = Vec::new();
    for jobs in ["1", "2", "2"] {
        let out = s.path(&format!("out-{}", reports.len()));
        let report = s.grade(&[], &class, &out, &["--jobs", jobs]);
        let grades = std::fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
        let feedback: Vec<String> = students
            .iter()
            .map(|(n, _)| {
                std::fs::read_to_string(out.join(format!("feedback/{n}.txt"))).unwrap_or_default()
            })
            .collect();
        reports.push((decided(report), grades, feedback));
    }
    let (one, grades, _) = &reports[0];
    // The reference itself is what the rule says, so that agreeing with it means something.
    let by = |name: &str| student(one, name);
    assert_eq!(by("ann")["skipped"], 0);
    assert_eq!(reported(&by("ben")).len(), 8, "{one:#}");
    assert_eq!(by("ben")["skipped"], 1);
    assert_eq!(by("dan")["skipped"], 0);
    assert_eq!(reported(&by("dan")).len(), 9, "{one:#}");
    assert_eq!(reported(&by("eve")).len(), 5, "{one:#}");
    assert_eq!(by("eve")["skipped"], 4, "{one:#}");
    assert_eq!(by("hal")["skipped"], 2, "{one:#}");
    assert_eq!(reported(&by("hal")).len(), 7, "{one:#}");
    assert!(grades.contains("ann,100,100"), "{grades}");
    for (n, (report, g, feedback)) in reports.iter().enumerate().skip(1) {
        assert_eq!(report, &reports[0].0, "run {n} (--jobs 2)");
        assert_eq!(g, &reports[0].1, "run {n} (--jobs 2)");
        assert_eq!(feedback, &reports[0].2, "run {n} (--jobs 2)");
    }
}
