//! ICPC scoring problems (`type: scoring`) judged with grundy's group
//! points: each test builds a small package in its own words, in the
//! legacy grading style (`testdata.yaml`) and the 2025-09 one
//! (`test_group.yaml`), and checks the scores `judge` gives and what
//! `verify` says of the known submissions. Real processes.

mod common;

use std::path::PathBuf;

use common::doubling::{FULL, SMALL_ONLY, tests};
use common::{Project, judge_package as judge, verify_package as verify};

/// A package graded as problemtools' `oddecho` is: subtasks worth their
/// `accept_score` all-or-nothing (`grader_flags: min`), plus a group that
/// earns per accepted test (`sum` with `on_reject: continue`); samples
/// ignored by the root's `ignore_sample`.
fn legacy_package(p: &Project) -> PathBuf {
    p.write(
        "doubling/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Doubling\ntype: scoring\nlimits: {time_limit: 2}\n",
    );
    p.write(
        "doubling/data/testdata.yaml",
        "on_reject: continue\ngrader_flags: ignore_sample\n",
    );
    p.write(
        "doubling/data/sample/testdata.yaml",
        "accept_score: 0\ngrader_flags: first_error\n",
    );
    tests(p, "doubling/data/sample", &[3]);
    p.write(
        "doubling/data/secret/testdata.yaml",
        "grader_flags: first_error accept_if_any_accepted\n",
    );
    p.write(
        "doubling/data/secret/a-small/testdata.yaml",
        "on_reject: break\naccept_score: 30\nrange: 0 30\ngrader_flags: min\n",
    );
    tests(p, "doubling/data/secret/a-small", &[1, 7, 10]);
    p.write(
        "doubling/data/secret/b-large/testdata.yaml",
        "on_reject: break\naccept_score: 40\ngrader_flags: min\n",
    );
    tests(p, "doubling/data/secret/b-large", &[11, 1_000_000]);
    p.write(
        "doubling/data/secret/c-each/testdata.yaml",
        "on_reject: continue\naccept_score: 10\n",
    );
    tests(p, "doubling/data/secret/c-each", &[2, 500, 9]);
    p.write("doubling/submissions/accepted/full.py", FULL);
    p.write(
        "doubling/submissions/partially_accepted/small.py",
        SMALL_ONLY,
    );
    p.write("doubling/submissions/wrong_answer/zero.py", "print(0)\n");
    p.write("doubling/graders/grader.py", "print('AC 0')\n");
    p.path("doubling")
}

#[test]
fn legacy_grading_maps_onto_group_points_and_partially_accepted_is_a_score() {
    let p = Project::empty();
    let pkg = legacy_package(&p);

    let r = judge(&p, &pkg, &pkg.join("submissions/accepted/full.py"));
    assert_eq!(r["verdict"], "AC", "{r:#}");
    assert_eq!(r["score"], 100.0, "{r:#}");

    // a-small (30) and two of c-each's three tests (10 each).
    let r = judge(
        &p,
        &pkg,
        &pkg.join("submissions/partially_accepted/small.py"),
    );
    assert_eq!(r["verdict"], "WA", "{r:#}");
    assert_eq!(r["score"], 50.0, "{r:#}");

    let r = judge(&p, &pkg, &pkg.join("submissions/wrong_answer/zero.py"));
    assert_eq!(r["score"], 0.0, "{r:#}");

    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("small.py"), "{text}");
    assert!(text.contains("score more than 0"), "{text}");
    assert!(
        text.contains("graders/: a custom grader is not run"),
        "{text}"
    );

    // A full solution filed as partially accepted breaks its rule.
    p.write("doubling/submissions/partially_accepted/too_good.py", FULL);
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("too_good.py"))
        .unwrap_or_else(|| panic!("no line for too_good.py:\n{text}"));
    assert!(line.contains("BAD"), "{line}");
    assert!(line.contains("score 100 of 100"), "{line}");
}

/// A 2025-09 package: `a` is pass-fail worth 40, `b` adds up its three
/// tests worth 20 each; `submissions.yaml` states the scores.
fn v2025_package(p: &Project, expected_partial: &str) -> PathBuf {
    p.write(
        "halves/problem.yaml",
        "problem_format_version: 2025-09\nname: Halves\ntype: scoring\nuuid: 8f1e\nlimits: {time_limit: 2}\n",
    );
    tests(p, "halves/data/sample", &[4]);
    p.write("halves/data/secret/a/test_group.yaml", "max_score: 40\n");
    tests(p, "halves/data/secret/a", &[100, 200]);
    p.write(
        "halves/data/secret/b/test_group.yaml",
        "max_score: 60\nscore_aggregation: sum\nrequire_pass: secret/a\n",
    );
    tests(p, "halves/data/secret/b", &[5, 6, 60]);
    p.write("halves/submissions/accepted/full.py", FULL);
    p.write("halves/submissions/rejected/small.py", SMALL_ONLY);
    p.write(
        "halves/submissions/submissions.yaml",
        &format!("accepted:\n  score: 100\nrejected/small.py:\n  score: {expected_partial}\n"),
    );
    p.path("halves")
}

#[test]
fn v2025_09_max_score_and_sum_aggregation_give_the_package_score() {
    let p = Project::empty();
    let pkg = v2025_package(&p, "[30, 50]");

    // b's two small tests: 2 × 20 of 100.
    let r = judge(&p, &pkg, &pkg.join("submissions/rejected/small.py"));
    assert_eq!(r["score"], 40.0, "{r:#}");
    let r = judge(&p, &pkg, &pkg.join("submissions/accepted/full.py"));
    assert_eq!(r["score"], 100.0, "{r:#}");

    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("`require_pass` not honoured"), "{text}");

    // The wrong expectation is caught, with the score said.
    let pkg = v2025_package(&p, "60");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("score 40 of 100, expected 60"), "{text}");
}

#[test]
fn a_submit_answer_package_is_still_refused_by_name() {
    let p = Project::empty();
    p.write(
        "twice/problem.yaml",
        "problem_format_version: 2025-09\nname: Twice\ntype: submit-answer\n",
    );
    tests(&p, "twice/data/secret", &[1]);
    let (code, text) = verify(&p, &p.path("twice"));
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("`submit-answer`"), "{text}");
}
