//! ICPC / Kattis problem packages as the PROBLEM of `judge` and `verify`:
//! the two fixture packages (a custom validator, a float tolerance) verify,
//! a misfiled submission fails, the default validator's flags mean what the
//! format says, and unsupported parts are refused by name.

mod common;

use std::path::{Path, PathBuf};

use common::{Project, copy_icpc_fixture as copy_fixture, icpc_fixture as fixture, stderr, stdout};

fn run(p: &Project, args: &[&str]) -> std::process::Output {
    p.grundy(args)
}

fn judge_json(p: &Project, package: &Path, submission: &Path) -> serde_json::Value {
    let out = run(
        p,
        &[
            "judge",
            &package.to_string_lossy(),
            &submission.to_string_lossy(),
            "--json",
        ],
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)))
}

#[test]
fn both_fixture_packages_verify() {
    let p = Project::empty();
    let (a, b) = (fixture("sumfloat"), fixture("nimmove"));
    let out = run(&p, &["verify", &a.to_string_lossy(), &b.to_string_lossy()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    for line in [
        "ok  scientific.c                 expected AC  got AC",
        "ok  two_decimals.py              expected WA  got WA",
        "ok  spin.c                       expected TLE got TLE",
        "ok  one_per_line.py              expected RE  got RE",
        "ok  last_pile.py                 expected AC  got AC",
        "ok  take_one.py                  expected WA  got WA",
    ] {
        assert!(text.contains(line), "missing `{line}`:\n{text}");
    }
    assert!(text.contains("verify: everything as expected"));
}

#[test]
fn a_misfiled_submission_fails_verify() {
    let p = Project::empty();
    let pkg = copy_fixture(&p, "nimmove");
    std::fs::rename(
        pkg.join("submissions/wrong_answer/take_one.py"),
        pkg.join("submissions/accepted/take_one.py"),
    )
    .expect("move");
    let out = run(&p, &["verify", &pkg.to_string_lossy()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}\n{}", stderr(&out));
    assert!(text.contains("BAD take_one.py"), "{text}");
    assert!(text.contains("expected AC  got WA"), "{text}");
    assert!(text.trim_end().ends_with("verify: FAILED"), "{text}");
}

#[test]
fn the_validators_judgemessage_is_the_message() {
    let p = Project::empty();
    let pkg = fixture("nimmove");
    let v = judge_json(&p, &pkg, &pkg.join("submissions/wrong_answer/take_one.py"));
    let r = &v["results"][0];
    assert_eq!(r["verdict"], "WA", "{r}");
    let failing: Vec<_> = r["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter(|t| t["verdict"] == "WA")
        .collect();
    assert_eq!(failing[0]["name"], "sample-2");
    assert_eq!(
        failing[0]["message"],
        "move 1 2 leaves a winning position to the opponent"
    );
    assert_eq!(r["tests"][2]["group"], "secret", "{r}");
}

#[test]
fn float_tolerance_accepts_any_format_within_it() {
    let p = Project::empty();
    let pkg = fixture("sumfloat");
    let near = p.write("subs/near.py", "import sys\nn,*a=map(int,sys.stdin.read().split())\nprint('%.7e' % (sum(a[:n])/n + 5e-7))\n");
    let v = judge_json(&p, &pkg, &near);
    assert_eq!(v["results"][0]["verdict"], "AC", "{v}");
    let groups: Vec<_> = v["results"][0]["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| t["group"].clone())
        .collect();
    assert_eq!(groups, ["sample", "large", "large", "small", "small"]);
    let far = p.write(
        "subs/far.py",
        "import sys\nn,*a=map(int,sys.stdin.read().split())\nprint(sum(a[:n])/n + 1e-4)\n",
    );
    let v = judge_json(&p, &pkg, &far);
    assert_eq!(v["results"][0]["verdict"], "WA", "{v}");
}

/// A package with one test whose answer is `Alice`, default validation.
fn word_package(p: &Project, flags: &str) -> PathBuf {
    let yaml = if flags.is_empty() {
        String::new()
    } else {
        format!("validator_flags: {flags}\n")
    };
    p.write("word/problem.yaml", &format!("name: Word\n{yaml}"));
    p.write("word/data/secret/1.in", "1\n");
    p.write("word/data/secret/1.ans", "Alice\n");
    p.write("word/submissions/accepted/ok.py", "print('Alice')\n");
    p.path("word")
}

#[test]
fn the_default_validator_ignores_case_unless_case_sensitive() {
    let p = Project::empty();
    let shout = p.write("subs/shout.py", "print('ALICE')\n");
    let spaced = p.write("subs/spaced.py", "print('  Alice  ')\n");
    let pkg = word_package(&p, "");
    assert_eq!(judge_json(&p, &pkg, &shout)["results"][0]["verdict"], "AC");
    let pkg = word_package(&p, "case_sensitive");
    assert_eq!(judge_json(&p, &pkg, &shout)["results"][0]["verdict"], "WA");
    assert_eq!(judge_json(&p, &pkg, &spaced)["results"][0]["verdict"], "AC");
    let pkg = word_package(&p, "space_change_sensitive");
    assert_eq!(judge_json(&p, &pkg, &spaced)["results"][0]["verdict"], "WA");
}

#[test]
fn unsupported_parts_are_refused_by_name() {
    let cases: [(&str, &str, &str); 7] = [
        (
            "problem.yaml",
            "name: X\ntype: [multi-pass, submit-answer]\n",
            "problem type `submit-answer` is not supported",
        ),
        (
            "problem.yaml",
            "name: X\ntype: submit-answer\n",
            "problem type `submit-answer` is not supported",
        ),
        (
            "problem.yaml",
            "name: X\nconstants: {9x: 1}\n",
            "constants: `9x` is not a name",
        ),
        (
            "include/cpp/lib.h",
            "",
            "`include/` (code added to every submission) is not supported",
        ),
        (
            "data/secret/g/1.args",
            "--fast\n",
            "this test data file is not supported",
        ),
        (
            "data/sample/1.interaction",
            "> 1\n",
            "an interaction sample (interactive problems) is not supported",
        ),
        (
            "problem.yaml",
            "name: X\nvalidator_flags: float_tolerance\n",
            "validator flag `float_tolerance` needs a number after it",
        ),
    ];
    for (file, text, expected) in cases {
        let p = Project::empty();
        let pkg = word_package(&p, "");
        p.write(&format!("word/{file}"), text);
        let out = run(
            &p,
            &[
                "judge",
                &pkg.to_string_lossy(),
                &pkg.join("submissions/accepted/ok.py").to_string_lossy(),
            ],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(
            err.contains(expected),
            "{file}: expected `{expected}` in:\n{err}"
        );
        assert!(
            err.contains(&p.path("word").to_string_lossy().into_owned()),
            "names no file: {err}"
        );
    }
}

#[test]
fn missing_answers_and_unknown_folders_are_named() {
    let p = Project::empty();
    let pkg = word_package(&p, "");
    p.write("word/data/secret/2.in", "2\n");
    let sub = pkg.join("submissions/accepted/ok.py");
    let out = run(
        &p,
        &["judge", &pkg.to_string_lossy(), &sub.to_string_lossy()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("data/secret/2.in: no answer file"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(p.path("word/data/secret/2.in")).expect("rm");
    // An unknown folder is skipped with a note; the rest is verified.
    p.write("word/submissions/slow_but_right/x.py", "print('Bob')\n");
    let out = run(&p, &["verify", &pkg.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(
            "note: submissions/slow_but_right/: not a verdict folder grundy checks; its submissions are skipped"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn our_spec_next_to_a_data_folder_is_still_ours() {
    let p = Project::toy("");
    p.write("problems/toy/data/secret/1.in", "1\n1\n");
    let out = p.grundy(&["list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"groups\": [\n      \"small\",\n      \"large\"\n    ]"),
        "{}",
        stdout(&out)
    );
}
