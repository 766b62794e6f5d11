//! Constants in a package's example submissions: the format (2025-09,
//! "Constants") lists "example submissions" among the files whose
//! `{{name}}` sequences "will be replaced by the value of the
//! corresponding constant". A submission that prints `{{LIMIT}}` is judged
//! as one printing the constant's value when it lies under the package's
//! `submissions/`, and as written anywhere else. Real compilers and
//! processes; no timing.

mod common;

use common::{Project, assert_verifies, judge_package, write_package};

/// Prints the constant `LIMIT` (a C macro-free use: the token is replaced
/// in the source before it is compiled).
const PRINT_LIMIT_C: &str = r#"
#include <stdio.h>
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    printf("%d\n", {{LIMIT}});
    return 0;
}
"#;

const PRINT_LIMIT_PY: &str = "input()\nprint(\"{{LIMIT.text}}\")\n";

fn package(p: &Project) -> String {
    write_package(
        p,
        "limit",
        "problem_format_version: 2025-09\nname: Limit\nconstants:\n  LIMIT:\n    value: 1000\n    text: \"1000\"\n",
        &[("1\n", "1000\n"), ("2\n", "1000\n")],
        &[
            ("submissions/accepted/print_limit.c", PRINT_LIMIT_C),
            ("submissions/accepted/folder/main.py", PRINT_LIMIT_PY),
            (
                "submissions/wrong_answer/print_other.py",
                "input()\nprint(\"{{OTHER}}\")\n",
            ),
        ],
    )
}

#[test]
fn constants_are_replaced_in_example_submissions() {
    let p = Project::empty();
    let pkg = package(&p);
    let pkg_path = p.path("limit");
    let r = judge_package(
        &p,
        &pkg_path,
        &pkg_path.join("submissions/accepted/print_limit.c"),
    );
    assert_eq!(r["verdict"], "AC", "{r:#}");
    // A folder submission too; an undefined name stays as written.
    assert_verifies(
        &p,
        &pkg,
        &["ok  print_limit.c", "ok  folder", "ok  print_other.py"],
    );
}

#[test]
fn a_submission_from_elsewhere_is_built_as_written() {
    let p = Project::empty();
    package(&p);
    let pkg_path = p.path("limit");
    let mine = p.write("mine/print_limit.c", PRINT_LIMIT_C);
    let r = judge_package(&p, &pkg_path, &mine);
    // `{{LIMIT}}` is not C: a compile error, as the file is written.
    assert_eq!(r["verdict"], "CE", "{r:#}");
}

/// The judge stages from the package the loader read, never from a folder
/// above it: a submission lying in a folder that holds the package is
/// built as written, even where that folder reads as another package
/// whose constants would make it compile.
#[test]
fn a_folder_above_the_package_is_never_read() {
    let p = Project::empty();
    write_package(
        &p,
        "outer",
        "problem_format_version: 2025-09\nname: Outer\nconstants:\n  LIMIT: 1000\n",
        &[("1\n", "1000\n")],
        &[("submissions/accepted/print_limit.c", PRINT_LIMIT_C)],
    );
    write_package(
        &p,
        "outer/limit",
        "problem_format_version: 2025-09\nname: Limit\n",
        &[("1\n", "1000\n")],
        &[],
    );
    let mine = p.path("outer/submissions/accepted/print_limit.c");
    let r = judge_package(&p, &p.path("outer/limit"), &mine);
    assert_eq!(r["verdict"], "CE", "{r:#}");
}
