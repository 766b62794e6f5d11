//! An interactor that writes to the submission after the submission has
//! ended (here: a goodbye line once its input has ended) keeps its own
//! verdict: the judge reads and drops what it writes then, as BAPCtools'
//! relay does, so the closed pipe does not kill it (`SIGPIPE`) into an
//! `IE`. The order is forced by the protocol, not by timing: the
//! interactor sees the end of its input only after the submission has
//! ended.

mod common;

use common::{DOUBLE_C, Project, assert_verifies, write_package};

/// Reads the answer, waits for the end of its input, says goodbye (with
/// the default `SIGPIPE` action: a closed pipe would kill it), then judges.
const INTERACTOR: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    if (argc < 4) return 1;
    FILE* in = fopen(argv[1], "r");
    long long n, got;
    if (!in || fscanf(in, "%lld", &n) != 1) return 1;
    printf("%lld\n", n);
    fflush(stdout);
    int answered = scanf("%lld", &got) == 1;
    while (getchar() != EOF) {}
    printf("bye\n");
    if (fflush(stdout) != 0) return 1;
    return answered && got == 2 * n ? 42 : 43;
}
"#;

const WRONG: &str = r#"
#include <stdio.h>
int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    printf("%lld\n", 2 * n + 1);
    return 0;
}
"#;

#[test]
fn an_interactor_writing_after_the_submission_ended_keeps_its_verdict() {
    let p = Project::empty();
    let pkg = write_package(
        &p,
        "bye",
        "problem_format_version: 2023-07\ntype: interactive\nname: Bye\nlimits:\n  time_limit: 2\n",
        &[("21\n", ""), ("5\n", "")],
        &[
            ("output_validator/interactor.c", INTERACTOR),
            ("submissions/accepted/right.c", DOUBLE_C),
            ("submissions/wrong_answer/wrong.c", WRONG),
        ],
    );
    assert_verifies(
        &p,
        &pkg,
        &[
            "ok  right.c                      expected AC  got AC",
            "ok  wrong.c                      expected WA  got WA",
        ],
    );
}
