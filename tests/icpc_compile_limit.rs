//! A package's known submission that only builds past grundy's own compile
//! limits (the format sets none for the disk; DOMjudge allows 2.5 GiB) is
//! skipped with the reason, not a failure of `verify`, while a submission
//! grundy files under its own `compile_error/` still must not compile.
//! The compile runs in grundy's sandbox, which stops it at 512 MiB written.

mod common;

use common::{Project, verify_package};

/// A 1 GiB initialised array, read where the input says (so the compiler
/// cannot drop it): the object file alone is past 512 MiB.
const HUGE: &str = "#include <stdio.h>\nstatic char big[1 << 30] = {1};\n\
int main(void) { int c = getchar(); return big[(unsigned char)c * 4096] - 1; }\n";

fn package(p: &Project) -> std::path::PathBuf {
    p.write(
        "big/problem.yaml",
        "problem_format_version: 2025-09\nname: Big\ntype: pass-fail\nuuid: b16\nlimits: {time_limit: 2}\n",
    );
    p.write("big/data/sample/1.in", "1\n");
    p.write("big/data/sample/1.ans", "1\n");
    p.write("big/data/secret/1.in", "2\n");
    p.write("big/data/secret/1.ans", "2\n");
    p.write("big/submissions/accepted/echo.py", "print(input())\n");
    p.path("big")
}

#[test]
fn a_submission_past_the_compile_disk_limit_is_skipped_with_the_reason() {
    let p = Project::empty();
    let pkg = package(&p);
    p.write("big/submissions/wrong_answer/huge.c", HUGE);
    let (code, text) = verify_package(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("huge.c"))
        .unwrap_or_else(|| panic!("no line for huge.c:\n{text}"));
    assert!(line.contains("skipped"), "{text}");
    assert!(line.contains("compile disk limit"), "{text}");
}

#[test]
fn a_compiler_error_is_still_a_failure_of_an_accepted_submission() {
    let p = Project::empty();
    let pkg = package(&p);
    p.write(
        "big/submissions/accepted/broken.c",
        "int main(void) { return x; }\n",
    );
    let (code, text) = verify_package(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("broken.c"))
        .unwrap_or_else(|| panic!("no line for broken.c:\n{text}"));
    assert!(!line.contains("skipped"), "{text}");
}
