//! A package that states no time limit: the limit is derived from its
//! accepted submissions as the format says (slowest accepted test ×
//! `ac_to_time_limit`, rounded up to `time_resolution`), in `judge` and in
//! `verify`, and said in a note. The package is written here; real
//! processes. No assertion depends on the machine's speed: the note's
//! limit is checked against the run time it reports.

mod common;

use common::{Project, stderr, stdout};

/// The accepted submission computes for a while (CPU time), then answers.
const SLOW: &str = r#"
#include <stdio.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    volatile unsigned long long x = 0;
    for (unsigned long long i = 0; i < 300000000ULL; i++) x += i;
    printf("%lld\n", n + 1);
    return 0;
}
"#;

const SPIN: &str = "int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n";

fn package(p: &Project) -> String {
    p.write(
        "inc/problem.yaml",
        "problem_format_version: 2025-09\nname: Increment\n",
    );
    p.write("inc/data/secret/1.in", "1\n");
    p.write("inc/data/secret/1.ans", "2\n");
    p.write("inc/submissions/accepted/slow.c", SLOW);
    p.write("inc/submissions/time_limit_exceeded/spin.c", SPIN);
    p.path("inc").to_string_lossy().into_owned()
}

/// The limit and the slowest run time a note states.
fn derived(text: &str) -> (f64, f64) {
    let line = text
        .lines()
        .find(|l| l.contains("derived as the format says"))
        .unwrap_or_else(|| panic!("no derived limit noted:\n{text}"));
    let limit: f64 = line
        .split("time limit ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no limit in {line}"));
    let slowest: f64 = line
        .split(" s) ×")
        .next()
        .and_then(|r| r.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no run time in {line}"));
    (limit, slowest)
}

#[test]
fn no_time_limit_in_the_package_is_derived_from_the_accepted_submissions() {
    let p = Project::empty();
    let pkg = package(&p);
    let out = p.grundy(&["verify", &pkg]);
    let text = format!("{}\n{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("slow.c on secret-1"), "{text}");
    let (limit, slowest) = derived(&text);
    // The format's rule: the smallest whole number of seconds (at least
    // one) that is at least twice the slowest accepted run.
    assert_eq!(limit, (slowest * 2.0).ceil().max(1.0), "{text}");
    // `judge` derives the same way and says so; the spinner is TLE.
    let out = p.grundy(&[
        "judge",
        &pkg,
        &format!("{pkg}/submissions/time_limit_exceeded/spin.c"),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stderr(&out)));
    assert_eq!(v["results"][0]["verdict"], "TLE", "{v:#}");
    let (limit, slowest) = derived(&stderr(&out));
    assert_eq!(limit, (slowest * 2.0).ceil().max(1.0));
}
