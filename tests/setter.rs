//! The setter's tools through the command line: `new` writes a problem
//! that verifies as written, `run` runs a submission on an input of one's
//! own, `verify` warns about time margins, and a mistyped problem id gets
//! its suggestion in every command that takes one.

mod common;

use common::{Project, grundy_in, stderr, stdout};

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}); stdout:\n{}\nstderr:\n{}",
            stdout(out),
            stderr(out)
        )
    })
}

/// A fresh problems folder with the skeleton `demo` in it.
fn with_demo() -> Project {
    let p = Project::empty();
    let out = grundy_in(&p.path("problems"), &["new", "demo"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    p
}

#[test]
fn a_new_problem_verifies_as_written_and_its_wrong_submission_is_caught() {
    let p = with_demo();
    for f in [
        "problem.yaml",
        "statement.md",
        "reference.rs",
        "generator.py",
        "validator.py",
        "submissions/accepted/solution.c",
        "submissions/wrong_answer/odd_wins.py",
    ] {
        assert!(p.path("problems/demo").join(f).is_file(), "{f} missing");
    }
    let out = p.grundy(&["verify", "demo", "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    let demo = &v["problems"][0];
    assert_eq!(demo["passed"], true, "{demo:#}");
    assert_eq!(demo["reference"]["status"], "ok", "{demo:#}");
    assert_eq!(demo["samples"]["status"], "ok", "{demo:#}");
    // The spec's validator ran on every test.
    assert_eq!(demo["input"]["status"], "ok", "{demo:#}");
    assert!(
        demo["input"]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("input validator")),
        "{demo:#}"
    );
    let known = demo["known"].as_array().expect("known");
    let got: Vec<(&str, &str)> = known
        .iter()
        .map(|k| {
            (
                k["path"].as_str().unwrap_or(""),
                k["got"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert!(
        got.iter()
            .any(|(p, g)| p.ends_with("wrong_answer/odd_wins.py") && *g == "WA"),
        "{got:?}"
    );
    assert!(
        got.iter()
            .any(|(p, g)| p.ends_with("accepted/solution.c") && *g == "AC"),
        "{got:?}"
    );
}

#[test]
fn new_refuses_an_existing_folder_and_a_bad_id() {
    let p = Project::empty();
    p.write("problems/demo/notes.txt", "mine\n");
    let out = grundy_in(&p.path("problems"), &["new", "demo"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("demo") && stderr(&out).contains("already exists"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(p.path("problems/demo/notes.txt")).expect("kept"),
        "mine\n"
    );
    assert!(!p.path("problems/demo/problem.yaml").exists());
    let out = grundy_in(&p.path("problems"), &["new", "Not_An_Id"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Not_An_Id"), "{}", stderr(&out));
}

#[test]
fn the_validator_of_a_new_problem_rejects_a_test_outside_its_constraints() {
    let p = with_demo();
    let spec = p.path("problems/demo/problem.yaml");
    let text = std::fs::read_to_string(&spec).expect("spec");
    // n = 0 breaks 1 <= n.
    let text = text.replace("- input: \"1\\n1\\n\"", "- input: \"1\\n0\\n\"");
    std::fs::write(&spec, text).expect("write");
    let out = p.grundy(&["verify", "demo", "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(1), "{v:#}");
    let input = &v["problems"][0]["input"];
    assert_eq!(input["status"], "failed", "{input:#}");
    let detail = input["detail"].as_str().unwrap_or("");
    assert!(
        detail.contains("validator.py") && detail.contains("small-1") && detail.contains("n = 0"),
        "{detail}"
    );
}

#[test]
fn run_shows_the_output_and_checks_it_with_an_answer() {
    let p = with_demo();
    let input = p.write("mine.in", "2\n4\n6\n");
    let good = p.write("right.ans", "Second\nFirst\n");
    let wrong = p.path("problems/demo/submissions/wrong_answer/odd_wins.py");
    let (input, good, wrong) = (
        input.to_string_lossy().into_owned(),
        good.to_string_lossy().into_owned(),
        wrong.to_string_lossy().into_owned(),
    );

    // Without an answer: the output as it is, status OK.
    let out = p.grundy(&["run", "demo", &wrong, &input]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "Second\nSecond\n");
    assert!(stderr(&out).contains("status: OK"), "{}", stderr(&out));
    assert!(stderr(&out).contains("KiB"), "{}", stderr(&out));

    // With one: the checker's verdict.
    let out = p.grundy(&["run", "demo", &wrong, &input, "--answer", &good, "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(1), "{v:#}");
    assert_eq!(v["status"], "WA", "{v:#}");
    assert_eq!(v["checked"], true, "{v:#}");
    assert_eq!(v["output"], "Second\nSecond\n", "{v:#}");
    assert!(
        v["time_ms"].is_number() && v["memory_kib"].is_number(),
        "{v:#}"
    );
    let right = p.path("problems/demo/submissions/accepted/solution.c");
    let out = p.grundy(&[
        "run",
        "demo",
        &right.to_string_lossy(),
        &input,
        "--answer",
        &good,
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(v["status"], "AC", "{v:#}");
}

#[test]
fn run_gives_the_limit_verdicts_and_names_a_missing_input() {
    let p = with_demo();
    let input = p.write("mine.in", "1\n4\n");
    let input = input.to_string_lossy().into_owned();
    // Spins on CPU forever: stopped at the CPU limit, whatever the load.
    let spin = p.write(
        "spin.c",
        "int main(void) { volatile unsigned x = 0; for (;;) x++; }\n",
    );
    let out = p.grundy(&["run", "demo", &spin.to_string_lossy(), &input, "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(1), "{v:#}");
    assert_eq!(v["status"], "TLE", "{v:#}");
    let crash = p.write("crash.py", "raise SystemExit(3)\n");
    let out = p.grundy(&["run", "demo", &crash.to_string_lossy(), &input, "--json"]);
    let v = json(&out);
    assert_eq!(v["status"], "RE", "{v:#}");
    assert_eq!(v["exit_code"], 3, "{v:#}");

    let missing = p.path("no-such.in");
    let out = p.grundy(&[
        "run",
        "demo",
        &crash.to_string_lossy(),
        &missing.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no-such.in"), "{}", stderr(&out));
}

/// A C program that spins for `seconds` of CPU time (by `clock()`, so load
/// on the machine does not change it), then answers the skeleton's game.
fn spinning(seconds: f64) -> String {
    format!(
        r#"#include <stdio.h>
#include <time.h>
int main(void) {{
    volatile unsigned long x = 0;
    while ((double)clock() / CLOCKS_PER_SEC < {seconds}) x++;
    int games; long long n;
    if (scanf("%d", &games) != 1) return 1;
    while (games-- > 0 && scanf("%lld", &n) == 1) puts(n % 4 == 0 ? "Second" : "First");
    return 0;
}}
"#
    )
}

fn known<'a>(problem: &'a serde_json::Value, suffix: &str) -> &'a serde_json::Value {
    problem["known"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|k| k["path"].as_str().is_some_and(|p| p.ends_with(suffix)))
        })
        .unwrap_or_else(|| panic!("no known submission {suffix}: {problem:#}"))
}

#[test]
fn verify_warns_about_time_margins_and_fails_on_them_only_when_strict() {
    let p = with_demo();
    // Only samples: few runs of the slow programs.
    let spec = p.path("problems/demo/problem.yaml");
    let text = std::fs::read_to_string(&spec).expect("spec");
    let cut = text.find("groups:").expect("groups");
    std::fs::write(
        &spec,
        format!(
            "{}groups:\n  - name: one\n    tests:\n      - input: \"1\\n4\\n\"\n",
            &text[..cut]
        ),
    )
    .expect("write");
    p.write("problems/demo/submissions/accepted/slow.c", &spinning(0.7));
    // 3 s is far over 1.5 s: its longer run is stopped at 1.5 s of CPU.
    p.write(
        "problems/demo/submissions/time_limit_exceeded/far.c",
        &spinning(3.0),
    );
    p.write(
        "problems/demo/submissions/time_limit_exceeded/near.c",
        &spinning(1.2),
    );
    // Under heavy load a run may still hit the wall-time limit; try again
    // until the slow one is judged AC (its CPU time does not depend on load).
    let mut tries = 0;
    let demo = loop {
        tries += 1;
        let out = p.grundy(&["verify", "demo", "--json"]);
        let v = json(&out);
        let demo = v["problems"][0].clone();
        if known(&demo, "accepted/slow.c")["got"] == "AC" || tries == 3 {
            break demo;
        }
    };
    let slow = known(&demo, "accepted/slow.c");
    assert_eq!(slow["got"], "AC", "{demo:#}");
    let ms = slow["max_time_ms"].as_f64().expect("time");
    let warned = |w: &str| {
        demo["warnings"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x.as_str().is_some_and(|x| x.contains(w))))
    };
    assert!(ms > 500.0, "clock() spun 0.7 s, measured {ms} ms");
    assert!(warned("accepted/slow.c"), "{demo:#}");
    assert!(slow["warning"].is_string(), "{demo:#}");
    assert!(known(&demo, "accepted/solution.c")["warning"].is_null());

    // Far over the margin: never warned.
    let far = known(&demo, "time_limit_exceeded/far.c");
    assert_eq!(far["got"], "TLE", "{demo:#}");
    assert!(far["warning"].is_null(), "{demo:#}");
    assert!(!warned("far.c"), "{demo:#}");
    // Within it: warned exactly when its longer run finished (a loaded
    // machine may stop it on wall time).
    let near = known(&demo, "time_limit_exceeded/near.c");
    assert_eq!(near["got"], "TLE", "{demo:#}");
    let finished = near["margin_run"]["finished"]
        .as_bool()
        .expect("margin run");
    assert_eq!(warned("near.c"), finished, "{demo:#}");
    if finished {
        let t = near["margin_run"]["time_ms"].as_f64().expect("time");
        assert!(t > 1000.0 && t <= 1500.0, "{t}");
    }
    // Warnings do not fail verify, unless --strict.
    assert_eq!(demo["passed"], true, "{demo:#}");
    let out = p.grundy(&["verify", "demo", "--strict"]);
    // The slow accepted one is warned whenever it is AC; when load makes it
    // TLE, verify fails anyway.
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("warning:"), "{}", stdout(&out));
}

#[test]
fn a_mistyped_problem_id_gets_a_suggestion_in_every_command() {
    let p = Project::toy("");
    let toy_c = p.write("sub.c", common::TOY_C);
    let input = p.write("in.txt", "1\n1\n");
    let out_dir = p.path("out");
    let (sub, input, out_dir) = (
        toy_c.to_string_lossy().into_owned(),
        input.to_string_lossy().into_owned(),
        out_dir.to_string_lossy().into_owned(),
    );
    let class = p.path("class");
    std::fs::create_dir_all(class.join("ann")).expect("mkdir");
    std::fs::copy(&toy_c, class.join("ann/toy.c")).expect("copy");
    let class = class.to_string_lossy().into_owned();
    let commands: Vec<Vec<&str>> = vec![
        vec!["judge", "tyo", &sub],
        vec!["verify", "tyo"],
        vec!["gen", "tyo", "--out", &out_dir],
        vec!["stress", "tyo", &sub, "--time", "1"],
        vec!["mutants", "tyo"],
        vec!["export", "tyo", "--to", &out_dir],
        vec!["run", "tyo", &sub, &input],
        vec!["statement", "tyo"],
        vec![
            "grade",
            &class,
            "--problem",
            "tyo",
            "--out",
            &out_dir,
            "--allow-weak-sandbox",
        ],
    ];
    for args in commands {
        let out = p.grundy(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("no problem `tyo`; did you mean `toy`?"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn the_statement_is_rendered_to_html_alone_and_beside_the_grade_reports() {
    let p = with_demo();
    let page = p.path("demo.html");
    let out = p.grundy(&["statement", "demo", "--out", &page.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(html.contains("<h2>Input</h2>"), "{html}");
    assert!(html.contains(r"\(1 \le n \le 10^9\)"), "{html}");
    assert!(html.contains("Time limit 1 s"), "{html}");

    let toy = Project::toy("");
    let class = toy.path("class");
    std::fs::create_dir_all(class.join("ann")).expect("mkdir");
    toy.write("class/ann/toy.c", common::TOY_C);
    let out_dir = toy.path("out");
    let out = toy.grundy(&[
        "grade",
        &class.to_string_lossy(),
        "--out",
        &out_dir.to_string_lossy(),
        "--allow-weak-sandbox",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = std::fs::read_to_string(out_dir.join("statements/toy.html")).expect("statement");
    assert!(html.contains("<h1>Toy</h1>"), "{html}");
}

/// `grundy run demo sol <(printf …) --answer <(printf …)`: the input and
/// the answer are pipes (`/dev/fd/N`), read through the path as given.
#[test]
fn run_reads_the_input_and_the_answer_through_process_substitution() {
    let p = with_demo();
    let right = p.path("problems/demo/submissions/accepted/solution.c");
    let cache = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("grundy-test-cache");
    let run = |answer: &str| {
        std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(
                "\"$0\" run demo \"$1\" <(printf '2\\n4\\n6\\n') --answer <(printf '{answer}') \
                 --problems \"$2\" --cache \"$3\" --json"
            ))
            .arg(env!("CARGO_BIN_EXE_grundy"))
            .arg(&right)
            .arg(p.path("problems"))
            .arg(&cache)
            .output()
            .expect("run bash")
    };
    let out = run("Second\\nFirst\\n");
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert_eq!(v["status"], "AC", "{v:#}");
    assert_eq!(v["output"], "Second\nFirst\n", "{v:#}");
    // The answer really is read: a wrong one is a wrong answer.
    let out = run("First\\nFirst\\n");
    let v = json(&out);
    assert_eq!(v["status"], "WA", "{v:#}");
}
