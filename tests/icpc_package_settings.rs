//! Settings ICPC packages give in the less common places, read with the
//! format's meaning: a test's own `<test>.yaml` (2023-07 on) and a test
//! case's `yaml:` in BAPCtools' `generators.yaml` override their folder's
//! settings (the format's "Test case configuration"); grading keys written
//! inline in `generators.yaml` are the folder's; an `unbounded`
//! `max_score` is judged with a note, not refused. Real packages written
//! here, verified and judged by the real binary (Python programs).

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

/// A 2025-09 scoring package whose grading keys are written inline in
/// `generators.yaml`, as BAPCtools lets a folder carry its
/// `test_group.yaml`: read as if written in the folder. `a` is pass-fail
/// worth 40, `b` adds up its three tests worth 20 each.
#[test]
fn grading_keys_inline_in_generators_yaml_score_the_groups() {
    use common::doubling::{FULL, SMALL_ONLY};
    let p = Project::empty();
    p.write(
        "halves/problem.yaml",
        "problem_format_version: 2025-09\nname: Halves\ntype: scoring\nlimits: {time_limit: 2}\n",
    );
    p.write(
        "halves/generators/generators.yaml",
        "solution: /submissions/accepted/full.py\n\
         data:\n  sample:\n    data: {s: {in: '4', ans: '8'}}\n  secret:\n    data:\n\
         \x20     a:\n        test_group.yaml: {max_score: 40}\n\
         \x20       data: {one: {in: '100'}, two: {in: '200'}}\n\
         \x20     b:\n        test_group.yaml: {max_score: 60, score_aggregation: sum}\n\
         \x20       data: {one: {in: '5'}, two: {in: '6'}, three: {in: '60'}}\n",
    );
    p.write("halves/submissions/accepted/full.py", FULL);
    p.write("halves/submissions/rejected/small.py", SMALL_ONLY);
    p.write(
        "halves/submissions/submissions.yaml",
        "accepted:\n  score: 100\nrejected/small.py:\n  score: 40\n",
    );
    let pkg = p.path("halves");
    // b's two small tests: 2 × 20 of 100 (without the inline keys, both
    // groups would be unbounded and worth 1 each: 2/3 of 2).
    let r = common::judge_package(&p, &pkg, &pkg.join("submissions/rejected/small.py"));
    assert_eq!(r["score"], 40.0, "{r:#}");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("max_score"), "{text}");
}

/// 2025-09 `max_score: unbounded`: the format's score is the output
/// validator's `score.txt` as written, which grundy's bounded groups cannot
/// hold. The package is judged (verdicts as the validator says), each
/// group worth 1 and an accepted test its whole share, with a note.
#[test]
fn an_unbounded_max_score_is_judged_with_a_note() {
    let p = Project::empty();
    p.write(
        "open/problem.yaml",
        "problem_format_version: 2025-09\nname: Open\ntype: scoring\nlimits: {time_limit: 2}\n",
    );
    p.write("open/data/secret/test_group.yaml", "max_score: unbounded\n");
    p.write(
        "open/data/secret/g/test_group.yaml",
        "score_aggregation: sum\n",
    );
    for n in [1, 2] {
        p.write(&format!("open/data/secret/g/{n}.in"), &format!("{n}\n"));
        p.write(&format!("open/data/secret/g/{n}.ans"), &format!("{n}\n"));
    }
    // Scores 5 and 10: above any share grundy could give a test.
    p.write(
        "open/output_validator/score.py",
        "import sys\n\
         want = open(sys.argv[1]).read().strip()\n\
         if sys.stdin.read().strip() != want:\n    sys.exit(43)\n\
         open(sys.argv[3] + '/score.txt', 'w').write(str(5 * int(want)))\n\
         sys.exit(42)\n",
    );
    p.write("open/submissions/accepted/echo.py", ECHO_PY);
    p.write(
        "open/submissions/wrong_answer/zero.py",
        "input()\nprint(0)\n",
    );
    let pkg = p.path("open");
    let r = common::judge_package(&p, &pkg, &pkg.join("submissions/accepted/echo.py"));
    assert_eq!(r["verdict"], "AC", "{r:#}");
    assert_eq!(r["score"], 100.0, "{r:#}");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("data/secret: `max_score: unbounded` not mapped")
            && text.contains("its `score.txt` is not read"),
        "{text}"
    );
    assert!(
        text.contains("zero.py") && text.contains("got WA"),
        "{text}"
    );
}

/// A package with no test data at all (BAPCtools' `testproblemconfig`
/// checks only its `problem.yaml`): `verify` loads it, says per item that
/// nothing can be judged, and checks the rest; `judge` refuses to give a
/// verdict on no tests (exit 2), where it would otherwise say `AC`.
#[test]
fn a_package_without_tests_is_verified_item_by_item_and_not_judged() {
    let p = Project::empty();
    p.write(
        "bare/problem.yaml",
        "problem_format_version: 2025-09\ntype: pass-fail\nname: Bare\nlimits: {time_limit: 3}\n",
    );
    // A custom validator still to be written: nothing runs it.
    p.write("bare/output_validator/.gitkeep", "");
    p.write("bare/submissions/accepted/a.py", "print(1)\n");
    p.write("bare/submissions/wrong_answer/b.py", "print(2)\n");
    let pkg = p.path("bare");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("no test data at all"), "{text}");
    for name in ["a.py", "b.py"] {
        let line = text
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("no line for {name}:\n{text}"));
        assert!(line.contains("skipped: no tests to judge it on"), "{line}");
    }

    let out = p.grundy(&[
        "judge",
        &pkg.to_string_lossy(),
        &pkg.join("submissions/accepted/a.py").to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", common::stdout(&out));
    assert!(
        common::stderr(&out).contains("has no tests"),
        "{}",
        common::stderr(&out)
    );

    // A malformed problem.yaml is still the package's error.
    p.write("bare/problem.yaml", "problem_format_version: 1999\n");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(2), "{text}");
}
