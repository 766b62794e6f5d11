//! The ICPC format's precedence between an interactor program and the
//! submission, on a package built here: whichever of the two ended first
//! decides. An interactor that rejected first makes the test WA even when
//! the submission crashes afterwards; a submission that closed its output
//! and then crashed or hung ended first (the judge keeps the interactor's
//! input open until it has), so its RTE or TLE stands. No assertion depends
//! on how fast the machine is: every verdict follows from the order the
//! protocol forces, not from timings.

mod common;

use common::{DOUBLE_C, Project, assert_verifies, write_package};

/// The interactor: sends the input's number, wants it doubled back, then
/// the end of the submission's output.
const INTERACTOR: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char* dir;
static void verdict(int code, const char* why) {
    char path[4096];
    snprintf(path, sizeof path, "%sjudgemessage.txt", dir);
    FILE* f = fopen(path, "w");
    if (f) { fputs(why, f); fclose(f); }
    exit(code);
}
int main(int argc, char** argv) {
    if (argc < 4) return 1;
    dir = argv[3];
    FILE* in = fopen(argv[1], "r");
    long long n, got;
    if (!in || fscanf(in, "%lld", &n) != 1) return 1;
    printf("%lld\n", n);
    fflush(stdout);
    if (scanf("%lld", &got) != 1) verdict(43, "no answer");
    if (got != 2 * n) verdict(43, "not doubled");
    char rest[8];
    if (scanf("%7s", rest) == 1) verdict(43, "output after the answer");
    verdict(42, "doubled");
}
"#;

/// Answers wrong, waits for the interactor to end (the end of its input
/// comes only then), works a little and crashes: the interactor ended
/// first with its rejection.
const REJECTED_THEN_CRASH: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    printf("%lld\n", 2 * n + 1);
    fflush(stdout);
    while (getchar() != EOF) {}
    volatile unsigned long long x = 0;
    for (unsigned long long i = 0; i < 100000000ULL; i++) x += i;
    abort();
}
"#;

/// Closes its output without answering, then crashes.
const CLOSE_THEN_CRASH: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    fclose(stdout);
    close(1);
    abort();
}
"#;

/// Closes its output without answering, then computes forever.
const CLOSE_THEN_SPIN: &str = r#"
#include <stdio.h>
#include <unistd.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    fclose(stdout);
    close(1);
    volatile unsigned long long x = 0;
    for (;;) x++;
}
"#;

fn package(p: &Project) -> String {
    write_package(
        p,
        "double",
        "problem_format_version: 2025-09\ntype: interactive\nname: Double\nlimits:\n  time_limit: 1\n",
        &[("21\n", "42\n"), ("5\n", "10\n")],
        &[
            ("output_validator/interactor.c", INTERACTOR),
            ("submissions/accepted/right.c", DOUBLE_C),
            (
                "submissions/wrong_answer/rejected_then_crash.c",
                REJECTED_THEN_CRASH,
            ),
            (
                "submissions/run_time_error/close_then_crash.c",
                CLOSE_THEN_CRASH,
            ),
            (
                "submissions/time_limit_exceeded/close_then_spin.c",
                CLOSE_THEN_SPIN,
            ),
        ],
    )
}

#[test]
fn whichever_ended_first_decides_the_verdict() {
    let p = Project::empty();
    let pkg = package(&p);
    assert_verifies(
        &p,
        &pkg,
        &[
            "ok  right.c                      expected AC  got AC",
            "ok  rejected_then_crash.c        expected WA  got WA",
            "ok  close_then_crash.c           expected RE  got RE",
            "ok  close_then_spin.c            expected TLE got TLE",
        ],
    );
}
