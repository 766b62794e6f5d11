//! The format's time-limit inference: which known submissions' runs a
//! package's derived limit comes from (`wrong_answer/` too from 2023-07,
//! `use_for_time_limit: false` takes a run out, legacy keeps to
//! `accepted/`), and `time_limit_to_tle` as the margin a submission that
//! must time out has to keep. Packages are written here; real processes.
//! No assertion depends on the machine's speed: the runs differ by orders
//! of magnitude (a tenth of a second of work against none; a margin of 40
//! against one of 1.5 over a 0.1 s limit).

mod common;

use std::path::PathBuf;

use common::INC_C as INC;
use common::{Project, stderr, stdout, verify_package as verify};

/// Works for a while (`loops` additions of CPU time), then answers `answer`.
fn busy(loops: u64, answer: &str) -> String {
    format!(
        r#"
#include <stdio.h>
int main(void) {{
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    volatile unsigned long long x = 0;
    for (unsigned long long i = 0; i < {loops}ULL; i++) x += i;
    printf("%lld\n", {answer});
    return 0;
}}
"#
    )
}

/// About a tenth of a second: far more than `INC`, far less than a limit.
const SOME: u64 = 200_000_000;
/// Most of a second: far over 0.15 s, far under 4 s.
const MORE: u64 = 1_600_000_000;

fn package(p: &Project, problem_yaml: &str) -> PathBuf {
    p.write("inc/problem.yaml", problem_yaml);
    p.write("inc/data/secret/1.in", "1\n");
    p.write("inc/data/secret/1.ans", "2\n");
    p.write("inc/submissions/accepted/inc.c", INC);
    p.path("inc")
}

/// The derived-limit note's run: `SUBMISSION on TEST`.
fn derived_from(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.contains("derived as the format says"))
        .unwrap_or_else(|| panic!("no derived limit noted:\n{text}"));
    line.split("bounding it from below (")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .unwrap_or_else(|| panic!("no run named in {line}"))
        .to_string()
}

#[test]
fn the_limit_derives_from_every_run_the_rules_bound_from_below() {
    let p = Project::empty();
    let pkg = package(
        &p,
        "problem_format_version: 2025-09\nname: Increment\nuuid: 7a2e\n",
    );
    p.write("inc/submissions/wrong_answer/slow.c", &busy(SOME, "n"));

    // 2025-09: wrong_answer/ may not time out, so its runs bound the
    // limit from below, and it is the slowest.
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(
        derived_from(&text),
        "wrong_answer/slow.c on secret-1",
        "{text}"
    );

    // Taken out by its glob: only the accepted run is left.
    p.write(
        "inc/submissions/submissions.yaml",
        "wrong_answer/slow.c:\n  use_for_time_limit: false\n",
    );
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(derived_from(&text), "accepted/inc.c on secret-1", "{text}");
    // The opt-out is a rule of its own, said where it comes from.
    assert!(
        text.lines().any(|l| l.contains("slow.c")
            && l.contains(
                "per wrong_answer/ (the format's default): permitted [AC,WA] required [WA]"
            )
            && l.contains(
                "; per submissions.yaml `wrong_answer/slow.c`: use_for_time_limit false"
            )),
        "{text}"
    );

    // `lower` brings in a folder the format does not count by default,
    // and permits no time-out there.
    p.write("inc/submissions/rejected/slow.c", &busy(SOME, "n"));
    p.write(
        "inc/submissions/submissions.yaml",
        "wrong_answer/slow.c:\n  use_for_time_limit: false\nrejected/slow.c:\n  use_for_time_limit: lower\n",
    );
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(derived_from(&text), "rejected/slow.c on secret-1", "{text}");
}

#[test]
fn a_legacy_package_derives_its_limit_from_accepted_submissions_only() {
    let p = Project::empty();
    let pkg = package(&p, "name: Increment\n");
    p.write("inc/submissions/wrong_answer/slow.c", &busy(SOME, "n"));
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(derived_from(&text), "accepted/inc.c on secret-1", "{text}");
    // Legacy's multiplier: 5.
    assert!(text.contains("× ac_to_time_limit 5,"), "{text}");
}

/// `verify --json` of the package: the known submission `name`.
fn known(p: &Project, pkg: &std::path::Path, name: &str) -> serde_json::Value {
    let out = p.grundy(&["verify", &pkg.to_string_lossy(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
    let problem = &v["problems"][0];
    let found = problem["known"]
        .as_array()
        .and_then(|k| {
            k.iter()
                .find(|s| s["path"].as_str().is_some_and(|p| p.ends_with(name)))
        })
        .cloned()
        .unwrap_or_else(|| panic!("no known submission {name}:\n{v:#}"));
    serde_json::json!({"known": found, "warnings": problem["warnings"]})
}

fn timed_package(p: &Project, margin: &str) -> PathBuf {
    let pkg = package(
        p,
        &format!(
            "problem_format_version: 2023-07\nname: Increment\nlimits:\n  time_limit: 0.1\n  time_multipliers: {{time_limit_to_tle: {margin}}}\n"
        ),
    );
    p.write(
        "inc/submissions/time_limit_exceeded/slow.c",
        &busy(MORE, "n + 1"),
    );
    pkg
}

#[test]
fn time_limit_to_tle_is_the_margin_a_timing_out_submission_must_keep() {
    // 40 × 0.1 s: the slow one finishes within it, and is warned about.
    let p = Project::empty();
    let pkg = timed_package(&p, "40");
    let v = known(&p, &pkg, "slow.c");
    assert_eq!(v["known"]["got"], "TLE", "{v:#}");
    assert_eq!(v["known"]["margin_run"]["finished"], true, "{v:#}");
    let warning = v["known"]["warning"].as_str().unwrap_or_default();
    assert!(
        warning.contains("within time_limit_to_tle 40× the time limit (100 ms)"),
        "{v:#}"
    );

    // 1.5 × 0.1 s: it does not, and nothing is said.
    let p = Project::empty();
    let pkg = timed_package(&p, "1.5");
    let v = known(&p, &pkg, "slow.c");
    assert_eq!(v["known"]["got"], "TLE", "{v:#}");
    assert_eq!(v["known"]["margin_run"]["finished"], false, "{v:#}");
    assert!(v["known"]["warning"].is_null(), "{v:#}");

    // Opted out of the time limit, it is not held to the margin at all.
    let p = Project::empty();
    let pkg = timed_package(&p, "40");
    p.write(
        "inc/submissions/submissions.yaml",
        "time_limit_exceeded:\n  use_for_time_limit: false\n",
    );
    let v = known(&p, &pkg, "slow.c");
    assert_eq!(v["known"]["got"], "TLE", "{v:#}");
    assert!(v["known"]["margin_run"].is_null(), "{v:#}");
    assert!(v["known"]["warning"].is_null(), "{v:#}");
}
