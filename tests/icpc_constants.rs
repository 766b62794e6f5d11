//! Problem constants (`constants:` in a 2025-09 `problem.yaml`): each test
//! builds a small package whose generator command, generator source, input
//! validator and test-data settings say `{{name}}`, and checks that they
//! see the value (example submissions too: see
//! tests/icpc_submission_constants.rs). Real processes.

mod common;

use std::path::PathBuf;

use common::{Project, grundy_text as grundy, verify_package as verify};

/// A package whose tests a generator makes from `{{MAXN}}`; `command` is
/// the sample's generator command.
fn generated(p: &Project, command: &str) -> PathBuf {
    p.write(
        "cap/problem.yaml",
        "problem_format_version: 2025-09\nname: Cap\ntype: pass-fail\nuuid: 0c4a\nlimits: {time_limit: 2}\n\
         constants:\n  MAXN: {value: 10, WORD: ten}\n  HALF: 5\n",
    );
    p.write(
        "cap/generators/generators.yaml",
        &format!(
            "solution: /submissions/accepted/double.py\ndata:\n  sample:\n    data:\n      - '': {command}\n  secret:\n    data:\n      small: gen.py {{{{HALF}}}}\n      max: gen.py\n"
        ),
    );
    // The source is substituted too: with no argument it prints MAXN.
    p.write(
        "cap/generators/gen.py",
        "import sys\nassert '{{MAXN.WORD}}' == 'ten'\nprint(sys.argv[1] if len(sys.argv) > 1 else int('{{MAXN}}'))\n",
    );
    p.write(
        "cap/input_validators/bounds.py",
        "import sys\nn = int(sys.stdin.read())\nsys.exit(42 if 1 <= n <= {{MAXN}} else 43)\n",
    );
    p.write(
        "cap/submissions/accepted/double.py",
        "print(2 * int(input()))\n",
    );
    // Its `{{MAXN}}` is replaced too (the format replaces constants in
    // example submissions): it prints 10, not twice the input.
    p.write(
        "cap/submissions/wrong_answer/literal.py",
        "input()\nprint('{{MAXN}}')\n",
    );
    p.path("cap")
}

#[test]
fn constants_reach_generator_commands_sources_and_validators() {
    let p = Project::empty();
    let pkg = generated(&p, "gen.py {{MAXN}}");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("accept all 3 inputs"), "{text}");
    assert!(text.contains("literal.py"), "{text}");

    // The tests are 10 (sample), 5 and 10 (MAXN from the source).
    let out = p.path("out");
    let (code, text) = grundy(
        &p,
        &[
            "gen",
            &pkg.to_string_lossy(),
            "--out",
            &out.to_string_lossy(),
        ],
    );
    assert_eq!(code, Some(0), "{text}");
    let mut inputs: Vec<String> = std::fs::read_dir(&out)
        .expect("gen wrote tests")
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "in"))
        .map(|e| {
            std::fs::read_to_string(e.path())
                .expect("input")
                .trim()
                .to_string()
        })
        .collect();
    inputs.sort();
    assert_eq!(inputs, ["10", "10", "5"], "{text}");
}

#[test]
fn an_unknown_constant_in_a_generator_command_names_the_file() {
    let p = Project::empty();
    let pkg = generated(&p, "gen.py {{MAXM}}");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("generators.yaml"), "{text}");
    assert!(text.contains("`{{MAXM}}` names no constant"), "{text}");
    assert!(text.contains("`MAXN`"), "{text}");
}

/// A package with test files whose `test_group.yaml` takes the float
/// tolerance from a constant.
fn tolerance(p: &Project, setting: &str) -> PathBuf {
    p.write(
        "third/problem.yaml",
        "problem_format_version: 2025-09\nname: Third\nuuid: 77aa\nlimits: {time_limit: 2}\nconstants:\n  EPS: 0.001\n",
    );
    p.write("third/data/sample/1.in", "1\n");
    p.write("third/data/sample/1.ans", "0.333333333\n");
    p.write(
        "third/data/secret/test_group.yaml",
        &format!("output_validator_args: [float_absolute_tolerance, \"{setting}\"]\n"),
    );
    p.write("third/data/secret/1.in", "2\n");
    p.write("third/data/secret/1.ans", "0.666666667\n");
    p.write(
        "third/submissions/accepted/rough.py",
        "print('%.4f' % (int(input()) / 3))\n",
    );
    p.path("third")
}

#[test]
fn a_constant_in_test_group_yaml_is_its_value_and_an_unknown_one_is_an_error() {
    let p = Project::empty();
    let pkg = tolerance(&p, "{{EPS}}");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");

    let p = Project::empty();
    let pkg = tolerance(&p, "{{EPSILON}}");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("test_group.yaml"), "{text}");
    assert!(text.contains("`{{EPSILON}}` names no constant"), "{text}");
}
