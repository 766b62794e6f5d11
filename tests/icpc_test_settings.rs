//! Settings of single tests and of generated test data in ICPC packages:
//! a test's own `<test>.yaml` (2023-07 on) and a test case's `yaml:` in
//! BAPCtools' `generators.yaml` override their folder's settings, as the
//! format's "Test case configuration" says. Real packages written here,
//! verified by the real binary (Python validators and submissions).

mod common;

use common::{Project, verify_package as verify};

/// An input validator that accepts exactly the number its first argument
/// names: a test is valid only with the arguments meant for it.
const EQUALS_ARG: &str = "import sys\n\
want = sys.argv[1] if len(sys.argv) > 1 else None\n\
got = sys.stdin.read().strip()\n\
if got != want:\n    print(f'expected {want}, got {got}')\n    sys.exit(43)\n\
sys.exit(42)\n";

const ECHO_PY: &str = "print(input())\n";

/// A 2025-09 package whose folder says `5` and whose test 2 says `7` in
/// its own `2.yaml`; the sample says `3` in its own file too.
fn package_with_test_files(p: &Project) -> std::path::PathBuf {
    let files = [
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Args\nlimits: {time_limit: 2}\n",
        ),
        ("data/sample/1.in", "3\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/sample/1.yaml", "input_validator_args: ['3']\n"),
        (
            "data/secret/test_group.yaml",
            "input_validator_args: ['5']\n",
        ),
        ("data/secret/1.in", "5\n"),
        ("data/secret/1.ans", "5\n"),
        ("data/secret/2.in", "7\n"),
        ("data/secret/2.ans", "7\n"),
        (
            "data/secret/2.yaml",
            "input_validator_args: ['7']\ndescription: seven\n",
        ),
        ("input_validators/equals.py", EQUALS_ARG),
        ("submissions/accepted/echo.py", ECHO_PY),
    ];
    for (rel, text) in files {
        p.write(&format!("args/{rel}"), text);
    }
    p.path("args")
}

#[test]
fn a_tests_own_yaml_gives_its_input_validator_arguments() {
    let p = Project::empty();
    let pkg = package_with_test_files(&p);
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("1 input validator(s) accept all 3 inputs"),
        "{text}"
    );

    // Without its own file, test 2 gets its folder's `5` and is invalid.
    std::fs::remove_file(pkg.join("data/secret/2.yaml")).expect("remove");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("input_validators/equals.py given `5` rejects")
            && text.contains("data/secret/2.in")
            && text.contains("expected 5, got 7"),
        "{text}"
    );
}

#[test]
fn the_samples_own_yaml_counts_too() {
    let p = Project::empty();
    let pkg = package_with_test_files(&p);
    std::fs::remove_file(pkg.join("data/sample/1.yaml")).expect("remove");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("equals.py rejects sample-1") && text.contains("expected None, got 3"),
        "{text}"
    );
}

#[test]
fn a_test_asking_for_other_validator_arguments_or_submission_args_is_skipped_and_said() {
    let p = Project::empty();
    let pkg = package_with_test_files(&p);
    // Test 3 would need another checker setting; test 4 arguments to the
    // submission. Both would fail the echo submission if judged (their
    // answers are wrong on purpose).
    p.write("args/data/secret/3.in", "5\n");
    p.write("args/data/secret/3.ans", "6\n");
    p.write(
        "args/data/secret/3.yaml",
        "output_validator_args: [case_sensitive]\n",
    );
    p.write("args/data/secret/4.in", "5\n");
    p.write("args/data/secret/4.ans", "6\n");
    p.write("args/data/secret/4.yaml", "args: ['--fast']\n");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(
            "data/secret/3.in: skipped: its output validator arguments `case_sensitive` differ"
        ),
        "{text}"
    );
    assert!(
        text.contains("data/secret/4.in: skipped: it gives the submission `args`"),
        "{text}"
    );
    // Still judged: the tests not skipped.
    assert!(
        text.contains("1 input validator(s) accept all 3 inputs"),
        "{text}"
    );
}

/// The same per-test arguments given as BAPCtools writes them: a test
/// case's `yaml:` in `generators.yaml` (which it copies to `<test>.yaml`).
#[test]
fn a_generated_tests_yaml_gives_its_input_validator_arguments() {
    let p = Project::empty();
    let generators = |with_yaml: bool| {
        let own = if with_yaml {
            ", yaml: {input_validator_args: ['7']}"
        } else {
            ""
        };
        format!(
            "solution: /submissions/accepted/echo.py\n\
             data:\n  sample:\n    data: []\n  secret:\n\
             \x20   test_group.yaml: {{input_validator_args: ['5']}}\n\
             \x20   data:\n      - five: {{in: '5'}}\n      - seven: {{in: '7'{own}}}\n"
        )
    };
    p.write(
        "gen/problem.yaml",
        "problem_format_version: 2025-09\nname: Gen\nlimits: {time_limit: 2}\n",
    );
    p.write("gen/generators/generators.yaml", &generators(true));
    p.write("gen/input_validators/equals.py", EQUALS_ARG);
    p.write("gen/submissions/accepted/echo.py", ECHO_PY);
    let pkg = p.path("gen");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("1 input validator(s) accept all 2 inputs"),
        "{text}"
    );

    p.write("gen/generators/generators.yaml", &generators(false));
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("equals.py given `5` rejects") && text.contains("expected 5, got 7"),
        "{text}"
    );
}
