//! The time limit of a multi-pass problem applies to each pass: "The time
//! and memory limit apply for each invocation separately" (the format's
//! "Multi-pass validation", 2023-07 and 2025-09). The package built here
//! has a 1 s limit and three passes; its validator asks for pass `k + 1`
//! until pass 3. A submission that uses 0.4 s of CPU time on every pass
//! (1.2 s in all) is accepted only if the limit is counted per pass; one
//! that uses 1.5 s on its third pass alone is over the limit on that pass.
//! The programs count their own CPU time (`clock()`), so a busy machine
//! makes them no slower in the judge's eyes: the verdicts do not depend
//! on the load.

mod common;

use common::{Project, stderr, stdout, write_package};

/// `validator input answer feedback_dir/`: the pass number `k` is the
/// input; the output must be `ok k`; passes 1 and 2 ask for the next.
const VALIDATOR: &str = r#"
#include <stdio.h>
#include <string.h>
static const char* dir;
static void say(const char* why, int k) {
    char path[4096];
    snprintf(path, sizeof path, "%sjudgemessage.txt", dir);
    FILE* f = fopen(path, "a");
    if (f) { fprintf(f, "%s %d\n", why, k); fclose(f); }
}
int main(int argc, char** argv) {
    if (argc < 4) return 1;
    dir = argv[3];
    FILE* in = fopen(argv[1], "r");
    int k, got;
    char word[16];
    if (!in || fscanf(in, "%d", &k) != 1) return 1;
    if (scanf("%15s %d", word, &got) != 2 || strcmp(word, "ok") != 0 || got != k) {
        say("wrong on pass", k);
        return 43;
    }
    say("right on pass", k);
    if (k < 3) {
        char path[4096];
        snprintf(path, sizeof path, "%snextpass.in", dir);
        FILE* next = fopen(path, "w");
        if (!next) return 1;
        fprintf(next, "%d\n", k + 1);
        fclose(next);
    }
    return 42;
}
"#;

/// Answers pass `k` after burning `CPU(k)` seconds of its own CPU time.
fn burner(cpu: &str) -> String {
    format!(
        r#"
#include <stdio.h>
#include <time.h>
#define CPU(k) ({cpu})
int main(void) {{
    int k;
    if (scanf("%d", &k) != 1) return 1;
    clock_t until = (clock_t)(CPU(k) * CLOCKS_PER_SEC);
    volatile unsigned long spin = 0;
    while (clock() < until) spin++;
    printf("ok %d\n", k);
    return 0;
}}
"#
    )
}

fn package(p: &Project) -> String {
    write_package(
        p,
        "threepasses",
        "problem_format_version: 2025-09\ntype: multi-pass\nname: Three passes\nlimits:\n  time_limit: 1\n  validation_passes: 3\n",
        &[("1\n", "")],
        &[("output_validator/validate.c", VALIDATOR)],
    )
}

/// `grundy judge PACKAGE SUBMISSION --json`: the one test's verdict and
/// message.
fn judge(p: &Project, pkg: &str, submission: &str) -> (String, String) {
    let out = p.grundy(&["judge", pkg, submission, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
    let test = &v["results"][0]["tests"][0];
    let verdict = test["verdict"].as_str().unwrap_or("").to_string();
    let message = test["message"].as_str().unwrap_or("").to_string();
    let expected_code = if verdict == "AC" { 0 } else { 1 };
    assert_eq!(out.status.code(), Some(expected_code), "{}", stdout(&out));
    (verdict, message)
}

#[test]
fn each_pass_has_the_whole_time_limit() {
    let p = Project::empty();
    let pkg = package(&p);
    let steady = p.write("steady.c", &burner("0.4"));
    let (verdict, message) = judge(&p, &pkg, &steady.to_string_lossy());
    assert_eq!(verdict, "AC", "{message}");
    // All three passes ran, so 1.2 s of CPU time in all were accepted.
    assert!(message.contains("right on pass 3"), "{message}");
}

#[test]
fn one_pass_over_the_limit_is_a_time_limit_exceeded() {
    let p = Project::empty();
    let pkg = package(&p);
    let slow_last = p.write("slow_last.c", &burner("k == 3 ? 1.5 : 0.0"));
    let (verdict, message) = judge(&p, &pkg, &slow_last.to_string_lossy());
    assert_eq!(verdict, "TLE", "{message}");
    assert!(message.contains("pass 3"), "{message}");
}
