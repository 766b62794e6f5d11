//! Problem setters' checks on ICPC packages: `input_validators/` run by
//! `verify` on every test (exit 42 valid), and `submissions.yaml` rules
//! checked test by test. Real compilers, real processes; the packages are
//! written here or under tests/fixtures/icpc.

mod common;

use common::{
    Project, copy_icpc_fixture as copy_fixture, icpc_fixture as fixture, verify_package as verify,
};

#[test]
fn input_validators_and_submissions_yaml_of_the_fixture_pass() {
    let p = Project::empty();
    let (code, text) = verify(&p, &fixture("addpair"));
    assert_eq!(code, Some(0), "{text}");
    // A Python file and a C++ folder with its header: two programs run.
    assert!(
        text.contains("input: 2 input validator(s) accept all 4 inputs"),
        "{text}"
    );
    assert!(
        text.contains("note: input_validators/pair.ctd: a checktestdata description, not run"),
        "{text}"
    );
    // submissions.yaml makes slow_accepted/ a checked folder, and its
    // per-group rules decide for small_only.py.
    assert!(
        !text.contains("slow_accepted/: not a verdict folder"),
        "{text}"
    );
    // Each line says where its rules come from: a glob of
    // submissions.yaml, or the folder's default rule as the format gives it.
    for (name, from) in [
        ("count.py", "per submissions.yaml `slow_accepted/*.py`"),
        ("small_only.py", "per rejected/ (the format's default)"),
        (
            "small_only.py",
            "; per submissions.yaml `rejected/small_only.py`: on secret/big: required [RTE]",
        ),
        (
            "product.py",
            "per wrong_answer/ (the format's default with submissions.yaml's `wrong_answer` keys)",
        ),
        (
            "add.cpp",
            "per accepted/ (the format's default): permitted [AC]",
        ),
        (
            "add.py",
            "per accepted/ (the format's default): permitted [AC]",
        ),
    ] {
        assert!(
            text.lines()
                .any(|l| l.contains(name) && l.trim_start().starts_with("ok ") && l.contains(from)),
            "{name}: {from}\n{text}"
        );
    }
    // A glob giving only `authors` states no rule: add.py's line names
    // none of submissions.yaml.
    let add = text
        .lines()
        .find(|l| l.contains("add.py"))
        .unwrap_or_else(|| panic!("no line for add.py:\n{text}"));
    assert!(!add.contains("submissions.yaml"), "{add}");
}

#[test]
fn an_input_out_of_bounds_fails_naming_the_test_and_the_validators_reason() {
    let p = Project::empty();
    let pkg = copy_fixture(&p, "addpair");
    std::fs::write(pkg.join("data/secret/big/4.in"), "1001 1\n").expect("write");
    std::fs::write(pkg.join("data/secret/big/4.ans"), "1002\n").expect("write");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.lines().any(
            |l| l.contains("input validator input_validators/bounds.py rejects")
                && l.contains("data/secret/big/4.in")
                && l.contains("(exit 43): bounds: 1001 is outside 1..1000")
        ),
        "{text}"
    );
    // The report's last line (its progress lines follow, on stderr).
    assert!(text.contains("\nverify: FAILED\n"), "{text}");
}

#[test]
fn the_header_validator_rejects_a_badly_shaped_input() {
    let p = Project::empty();
    let pkg = copy_fixture(&p, "addpair");
    // Within bounds, so only the shape validator (source + header) objects.
    std::fs::write(pkg.join("data/secret/small/5.in"), "1 2 3\n").expect("write");
    std::fs::write(pkg.join("data/secret/small/5.ans"), "3\n").expect("write");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.lines().any(
            |l| l.contains("input validator input_validators/shape rejects")
                && l.contains("data/secret/small/5.in")
                && l.contains("shape: expected two numbers and one space")
        ),
        "{text}"
    );
}

#[test]
fn a_broken_submissions_yaml_rule_fails_verify_and_says_which() {
    let p = Project::empty();
    let pkg = copy_fixture(&p, "addpair");
    let path = pkg.join("submissions/submissions.yaml");
    let text = std::fs::read_to_string(&path).expect("read");
    let edited = text.replace(
        "  secret/big:\n    required: [RTE]\n",
        "  secret/big:\n    required: [TLE]\n",
    );
    assert_ne!(edited, text, "the fixture changed shape; update this test");
    std::fs::write(&path, edited).expect("write");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.lines().any(|l| l.contains("BAD")
            && l.contains("small_only.py")
            && l.contains("broken: submissions.yaml `rejected/small_only.py`: on secret/big: required [TLE]: no test got a required verdict")),
        "{text}"
    );
}

#[test]
fn an_unknown_verdict_in_submissions_yaml_is_refused_naming_the_file() {
    let p = Project::empty();
    let pkg = copy_fixture(&p, "addpair");
    std::fs::write(
        pkg.join("submissions/submissions.yaml"),
        "accepted/add.py:\n  permitted: [OK]\n",
    )
    .expect("write");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("submissions.yaml"), "{text}");
    assert!(
        text.contains("`OK` is not one of AC, WA, TLE, RTE"),
        "{text}"
    );
}

/// The early legacy name `input_format_validators/`, with a validator that
/// rejects a zero, in a package written here.
#[test]
fn legacy_input_format_validators_are_run() {
    let p = Project::empty();
    p.write("echo/problem.yaml", "name: Echo\n");
    p.write("echo/.timelimit", "2\n");
    p.write("echo/data/sample/1.in", "5\n");
    p.write("echo/data/sample/1.ans", "5\n");
    p.write("echo/data/secret/1.in", "7\n");
    p.write("echo/data/secret/1.ans", "7\n");
    p.write("echo/submissions/accepted/echo.py", "print(input())\n");
    p.write(
        "echo/input_format_validators/positive.py",
        "import sys\nn = int(sys.stdin.read())\nif n <= 0:\n    print('not positive')\n    sys.exit(1)\nsys.exit(42)\n",
    );
    let pkg = p.path("echo");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("input: 1 input validator(s) accept all 2 inputs"),
        "{text}"
    );
    p.write("echo/data/secret/2.in", "0\n");
    p.write("echo/data/secret/2.ans", "0\n");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("input_format_validators/positive.py rejects")
            && text.contains("data/secret/2.in")
            && text.contains("(exit 1): not positive"),
        "{text}"
    );
}

/// A BAPCtools package whose tests are still only `generators.yaml` is
/// recognised as a package, and its tests are made from that file.
#[test]
fn a_package_with_only_generators_yaml_is_generated() {
    let p = Project::empty();
    p.write(
        "gen/problem.yaml",
        "problem_format_version: 2025-09\nname: Gen\ntype: pass-fail\n",
    );
    p.write(
        "gen/generators/generators.yaml",
        "data:\n  secret:\n    data:\n      - one: {in: \"1\"}\n",
    );
    p.write("gen/submissions/accepted/a.py", "print(input())\n");
    let (code, text) = verify(&p, &p.path("gen"));
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("data/: made from generators/generators.yaml"),
        "{text}"
    );
    assert!(!text.contains("`id`"), "read as a grundy spec:\n{text}");
}
