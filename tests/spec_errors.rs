//! Broken specs: exit 2 and a message naming the file, line and column.

mod common;

use common::{Project, stderr};

/// Writes `spec` as problems/toy/problem.yaml and returns grundy's message.
fn error_for(spec: &str) -> String {
    let p = Project::toy("");
    p.write("problems/toy/problem.yaml", spec);
    let out = p.grundy(&["judge", "toy", &p.path("reference/toy.c").to_string_lossy()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "expected exit 2, stderr: {}",
        stderr(&out)
    );
    let msg = stderr(&out);
    let path = p.path("problems/toy/problem.yaml").display().to_string();
    // Messages are relative to the spec's path, which is a temporary folder.
    msg.replace(&path, "problem.yaml").trim().to_string()
}

#[test]
fn unknown_key() {
    assert_eq!(
        error_for("id: toy\ntitle: T\ntimelimit: 2\n"),
        "grundy: problem.yaml:3:1: unknown field `timelimit`, expected one of `id`, `title`, `source`, `statement`, `reference`, `seed`, `limits`, `checker`, `interactor`, `samples`, `groups`, `input_validators`, `input_validator_args`, `passes`, `game`"
    );
}

#[test]
fn unknown_key_deep_inside() {
    assert_eq!(
        error_for(
            "id: toy\ntitle: T\ngroups:\n  - name: a\n    tests:\n      - input: \"1\\n1\\n\"\n        cont: 3\n"
        ),
        "grundy: problem.yaml:7:9: groups[0].tests[0]: unknown field `cont`, expected one of `generator`, `program`, `input`, `file`, `answer`, `params`, `args`, `count`, `seed`"
    );
}

#[test]
fn bad_duration() {
    assert_eq!(
        error_for("id: toy\ntitle: T\nlimits:\n  time: fast\n"),
        "grundy: problem.yaml:4:9: limits.time: invalid value: string \"fast\", expected a duration such as 1s, 1.5s or 500ms"
    );
}

#[test]
fn bad_size() {
    assert_eq!(
        error_for("id: toy\ntitle: T\nlimits:\n  memory: 12 parsecs\n"),
        "grundy: problem.yaml:4:11: limits.memory: invalid value: string \"12 parsecs\", expected a size such as 256MiB, 1GiB or 65536KiB"
    );
}

#[test]
fn missing_title() {
    assert_eq!(
        error_for("id: toy\n"),
        "grundy: problem.yaml:1:1: missing field `title`"
    );
}

#[test]
fn unknown_generator_lists_the_known_ones() {
    let msg = error_for(
        "id: toy\ntitle: T\ngroups:\n  - name: a\n    tests:\n      - generator: no-such-thing\n",
    );
    assert!(msg.starts_with("grundy: problem.yaml:6:7: groups[0].tests: unknown generator `no-such-thing` (built-in generators: "), "{msg}");
}

#[test]
fn test_entry_with_two_kinds() {
    assert_eq!(
        error_for(
            "id: toy\ntitle: T\ngroups:\n  - name: a\n    tests:\n      - input: \"1\"\n        file: x.in\n"
        ),
        "grundy: problem.yaml:6:7: groups[0].tests: each test entry needs exactly one of `generator`, `program`, `input` or `file`"
    );
}

#[test]
fn unknown_checker() {
    assert_eq!(
        error_for("id: toy\ntitle: T\nchecker: fuzzy\n"),
        "grundy: problem.yaml:3:10: checker: unknown checker `fuzzy`, expected `tokens`, `exact`, or one of {float: {abs, rel}}, {game: NAME}, {testlib: PROGRAM}, {icpc: PROGRAM}"
    );
}

#[test]
fn broken_yaml_syntax() {
    let msg = error_for("id: toy\ntitle: \"unterminated\n");
    assert!(
        msg.starts_with("grundy: problem.yaml:3:1: found unexpected end of stream"),
        "{msg}"
    );
}

#[test]
fn id_and_folder_disagree() {
    assert_eq!(
        error_for("id: other\ntitle: T\n"),
        "grundy: problem.yaml: id `other` does not match its folder `toy`: rename one of them"
    );
}

#[test]
fn bad_id_characters() {
    assert_eq!(
        error_for("id: Toy_1\ntitle: T\n"),
        "grundy: problem.yaml:1:1: problem id `Toy_1`: use lowercase letters, digits and '-' (like `nim-yes-no`)"
    );
}

#[test]
fn duplicate_group() {
    assert_eq!(
        error_for(
            "id: toy\ntitle: T\ngroups:\n  - name: a\n    tests: [{input: \"1\"}]\n  - name: a\n    tests: [{input: \"2\"}]\n"
        ),
        "grundy: problem.yaml: group `a` is defined twice"
    );
}

#[test]
fn empty_file_and_binary_garbage_never_panic() {
    assert_eq!(
        error_for(""),
        "grundy: problem.yaml:1:1: missing field `id`"
    );
    let garbage: String = (0..2000u32)
        .map(|i| char::from_u32(32 + (i * 7919) % 95).unwrap_or('x'))
        .collect();
    let msg = error_for(&garbage);
    assert!(msg.starts_with("grundy: problem.yaml:"), "{msg}");
}

#[test]
fn missing_statement_file_names_the_key() {
    let msg = error_for("id: toy\ntitle: T\nstatement: nowhere.md\n");
    assert!(
        msg.starts_with(
            "grundy: problem.yaml: statement: `nowhere.md` does not exist (the path is relative to "
        ) && msg.ends_with("problems/toy)"),
        "{msg}"
    );
}

#[test]
fn unknown_problem_id() {
    let p = Project::toy("");
    let out = p.grundy(&[
        "judge",
        "nope",
        &p.path("reference/toy.c").to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no problem `nope` in"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn mistyped_problem_id_gets_a_suggestion() {
    let out = common::grundy_in(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems"),
        &["judge", "nmi", "whatever.c"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no problem `nmi`; did you mean `nim`?"),
        "{}",
        stderr(&out)
    );
}
