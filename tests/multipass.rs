//! Multi-pass problems of the ICPC format (`type: multi-pass`, alone or with
//! `interactive`), on packages built here. Every test input is `pass x`;
//! the submission must answer `2x`. On pass 1 the validator accepts, keeps
//! a note in its feedback folder and writes `nextpass.in` = `2 2x`; on
//! pass 2 it checks the note is still there (the format keeps the feedback
//! files between passes) and accepts without asking for more. So a
//! submission wrong or crashing only on pass 2 is caught only if the judge
//! really runs it again on the validator's input. No assertion depends on
//! timing.

mod common;

use common::{Project, assert_verifies, grundy_text, write_package};

/// What the validator and the interactor share: the feedback folder
/// (`dir`), the test's `pass x` (`read_test`), and the pass rules once the
/// answer is known (`judge_pass`): pass 1 keeps a note and asks for pass
/// 2 on `2 2x`; pass 2 wants the note still there.
macro_rules! with_pass_rules {
    ($main:literal) => {
        concat!(
            r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char* dir;
static FILE* open_in(const char* name, const char* mode) {
    char path[4096];
    snprintf(path, sizeof path, "%s%s", dir, name);
    return fopen(path, mode);
}
static void say(int code, const char* why) {
    FILE* f = open_in("judgemessage.txt", "a");
    if (f) { fprintf(f, "%s\n", why); fclose(f); }
    exit(code);
}
static void next(long long pass, long long x) {
    FILE* f = open_in("nextpass.in", "w");
    if (!f) exit(1);
    fprintf(f, "%lld %lld\n", pass, x);
    fclose(f);
}
static void read_test(int argc, char** argv, long long* pass, long long* x) {
    if (argc < 4) exit(1);
    dir = argv[3];
    FILE* in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%lld %lld", pass, x) != 2) exit(1);
}
static void judge_pass(long long pass, long long got) {
    if (pass == 1) {
        FILE* note = open_in("note.txt", "w");
        if (!note) exit(1);
        fputs("pass 1 was here\n", note);
        fclose(note);
        next(2, got);
        say(42, "pass 1 doubled");
    }
    FILE* note = open_in("note.txt", "r");
    if (!note) exit(1);
    fclose(note);
    say(42, "pass 2 doubled");
}
"#,
            $main
        )
    };
}

/// The output validator (`validator input answer feedback_dir/`): the
/// rules above; an output `again` asks for another pass whatever the
/// pass (for the `validation_passes` rule), `again-but-wrong` asks for one
/// and rejects (a judge error by the format).
const VALIDATOR: &str = with_pass_rules!(
    r#"
int main(int argc, char** argv) {
    long long pass, x;
    read_test(argc, argv, &pass, &x);
    char word[64];
    if (scanf("%63s", word) != 1) say(43, "no output");
    if (strcmp(word, "again") == 0) { next(pass + 1, x); say(42, "again"); }
    if (strcmp(word, "again-but-wrong") == 0) { next(pass + 1, x); say(43, "rejected"); }
    long long got = atoll(word);
    if (got != 2 * x) say(43, "not doubled");
    judge_pass(pass, got);
}
"#
);

/// The same rules as an interactor: it sends `pass x`, reads the answer.
const INTERACTOR: &str = with_pass_rules!(
    r#"
int main(int argc, char** argv) {
    long long pass, x, got;
    read_test(argc, argv, &pass, &x);
    printf("%lld %lld\n", pass, x);
    fflush(stdout);
    if (scanf("%lld", &got) != 1) say(43, "no answer");
    if (got != 2 * x) say(43, "not doubled");
    judge_pass(pass, got);
}
"#
);

const DOUBLE: &str = r#"
#include <stdio.h>
int main(void) {
    long long pass, x;
    if (scanf("%lld %lld", &pass, &x) != 2) return 1;
    printf("%lld\n", 2 * x);
    return 0;
}
"#;

const DOUBLE_PY: &str = "pass_, x = map(int, input().split())\nprint(2 * x)\n";

/// Right on pass 1, wrong on pass 2.
const WRONG_SECOND: &str = r#"
#include <stdio.h>
int main(void) {
    long long pass, x;
    if (scanf("%lld %lld", &pass, &x) != 2) return 1;
    printf("%lld\n", pass == 2 ? 2 * x + 1 : 2 * x);
    return 0;
}
"#;

/// Right on pass 1, crashes on pass 2.
const CRASH_SECOND: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long long pass, x;
    if (scanf("%lld %lld", &pass, &x) != 2) return 1;
    if (pass == 2) abort();
    printf("%lld\n", 2 * x);
    return 0;
}
"#;

/// A package `name/` with the validator or interactor `program` (a path
/// inside the package and its source), the sample, two secret tests and
/// the four submissions above.
fn package(p: &Project, name: &str, problem_yaml: &str, program: (&str, &str)) -> String {
    p.write(&format!("{name}/data/sample/1.in"), "1 3\n");
    p.write(&format!("{name}/data/sample/1.ans"), "");
    p.write(
        &format!("{name}/data/sample/1.interaction"),
        "<1 3\n>6\n---\n<2 6\n>12\n",
    );
    // The `.ans` files are empty, as the format's tools write them for
    // multi-pass tests.
    write_package(
        p,
        name,
        problem_yaml,
        &[("1 21\n", ""), ("1 -5\n", "")],
        &[
            program,
            ("submissions/accepted/double.c", DOUBLE),
            ("submissions/accepted/double.py", DOUBLE_PY),
            ("submissions/wrong_answer/wrong_second.c", WRONG_SECOND),
            ("submissions/run_time_error/crash_second.c", CRASH_SECOND),
        ],
    )
}

fn plain_package(p: &Project) -> String {
    package(
        p,
        "twice",
        "problem_format_version: 2025-09\ntype: multi-pass\nname: Twice\nlimits:\n  time_limit: 2\n",
        ("output_validator/validate.c", VALIDATOR),
    )
}

fn interactive_package(p: &Project) -> String {
    package(
        p,
        "twicetalk",
        "problem_format_version: 2023-07\ntype: [interactive, multi-pass]\nname: Twice, talking\nlimits:\n  time_limit: 2\n  validation_passes: 3\n",
        ("output_validator/interact.c", INTERACTOR),
    )
}

fn assert_verified(p: &Project, pkg: &str) {
    assert_verifies(
        p,
        pkg,
        &[
            "ok  double.c                     expected AC  got AC",
            "ok  double.py                    expected AC  got AC",
            "ok  wrong_second.c               expected WA  got WA",
            "ok  crash_second.c               expected RE  got RE",
        ],
    );
}

/// The judge's whole output for `submission` on `pkg`, and its exit code.
fn judge(p: &Project, pkg: &str, submission: &str) -> (Option<i32>, String) {
    grundy_text(p, &["judge", pkg, submission, "--all"])
}

#[test]
fn two_passes_judged_each_on_the_validators_input() {
    let p = Project::empty();
    let pkg = plain_package(&p);
    assert_verified(&p, &pkg);
    // The failing pass is named.
    let wrong = p.path("twice/submissions/wrong_answer/wrong_second.c");
    let (code, text) = judge(&p, &pkg, &wrong.to_string_lossy());
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("pass 2"), "{text}");
    assert!(text.contains("not doubled"), "{text}");
    let crash = p.path("twice/submissions/run_time_error/crash_second.c");
    let (code, text) = judge(&p, &pkg, &crash.to_string_lossy());
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("pass 2"), "{text}");
}

#[test]
fn interactive_passes_are_judged_like_interactive_tests() {
    let p = Project::empty();
    let pkg = interactive_package(&p);
    assert_verified(&p, &pkg);
}

#[test]
fn validator_breaking_the_pass_rules_is_a_judge_error() {
    let p = Project::empty();
    let pkg = plain_package(&p);
    // Asks for a third pass of at most two.
    let again = p.write("again.py", "input()\nprint('again')\n");
    let (code, text) = judge(&p, &pkg, &again.to_string_lossy());
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("IE"), "{text}");
    assert!(text.contains("validation_passes"), "{text}");
    // Rejects and asks for another pass.
    let both = p.write("both.py", "input()\nprint('again-but-wrong')\n");
    let (code, text) = judge(&p, &pkg, &both.to_string_lossy());
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("rejected the output and wrote nextpass.in"),
        "{text}"
    );
}

/// A submission the kernel refuses to execute is `RE` on its first pass,
/// with the reason, whether the passes talk to an interactor or are
/// checked by a validator: the submission's fault, not the judge's (`IE`,
/// exit 3).
#[test]
fn a_submission_that_cannot_start_is_re_on_its_first_pass() {
    let p = Project::empty();
    let empty = p.write("subs/empty", "");
    std::fs::set_permissions(&empty, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let empty = empty.to_string_lossy().into_owned();
    for pkg in [plain_package(&p), interactive_package(&p)] {
        let (code, text) = grundy_text(&p, &["judge", &pkg, &empty, "--lang", "exe", "--all"]);
        assert_eq!(code, Some(1), "{pkg}: {text}");
        assert!(text.contains("RE"), "{pkg}: {text}");
        assert!(!text.contains("IE"), "{pkg}: {text}");
        assert!(text.contains("pass 1"), "{pkg}: {text}");
        assert!(
            text.contains("the program could not be started"),
            "{pkg}: {text}"
        );
    }
}
