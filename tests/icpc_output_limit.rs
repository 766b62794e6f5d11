//! A package's submission that writes past the package's output limit
//! (`limits.output`). The format says only that a submission exceeding a
//! submission limit "must be rejected"; its expectations know four
//! verdicts (AC, WA, TLE, RTE), and grundy counts its `OLE` as a run-time
//! error among them, as BAPCtools reads DOMjudge's `OUTPUT-LIMIT`. The
//! report still says `OLE`. No assertion depends on timing: the flood
//! reaches 1 MiB long before any time limit.

mod common;

use common::{Project, stderr, stdout, write_package};

/// Echoes its number, then writes forever.
const FLOOD: &str = r#"
#include <stdio.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    printf("%lld\n", n);
    for (;;) fputs("more output than the package allows\n", stdout);
}
"#;

const ECHO: &str = r#"
#include <stdio.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    printf("%lld\n", n);
    return 0;
}
"#;

fn package(p: &Project, flood_at: &str, yaml: &str) -> String {
    let mut files = vec![("submissions/accepted/echo.c", ECHO), (flood_at, FLOOD)];
    if !yaml.is_empty() {
        files.push(("submissions/submissions.yaml", yaml));
    }
    write_package(
        p,
        "flood",
        "problem_format_version: 2025-09\nname: Flood\nlimits:\n  time_limit: 2\n  output: 1\n",
        &[("7\n", "7\n"), ("8\n", "8\n")],
        &files,
    )
}

#[test]
fn output_over_the_limit_is_a_run_time_error_of_the_format() {
    let p = Project::empty();
    let pkg = package(&p, "submissions/run_time_error/flood.c", "");
    let out = p.grundy(&["verify", &pkg]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    // The report names grundy's own verdict.
    assert!(text.contains("flood.c"), "{text}");
    assert!(text.contains("got OLE"), "{text}");
}

#[test]
fn output_over_the_limit_is_not_a_time_limit_exceeded() {
    let p = Project::empty();
    // `submissions.yaml` asks for TLE only: the flood breaks it.
    let pkg = package(
        &p,
        "submissions/time_limit_exceeded/flood.c",
        "time_limit_exceeded/flood.c:\n  permitted: [AC, TLE]\n  required: [TLE]\n",
    );
    let out = p.grundy(&["verify", &pkg]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}\n{}", stderr(&out));
    assert!(text.contains("got OLE"), "{text}");
}
