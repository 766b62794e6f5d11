//! ICPC packages whose tests BAPCtools' `generators/generators.yaml`
//! describes, the input validators' arguments, and `submissions.yaml`'s
//! `language` / `entrypoint`: each test writes a small package in its own
//! words and checks what `judge` and `verify` say. Real processes.

mod common;

use std::path::PathBuf;

use common::{Project, judge_package as judge, stderr, verify_package as verify};

/// Sum of two numbers; the generator prints `a b` from its arguments, so
/// which arguments it got (the seed among them) is visible in the input.
fn sum_package(p: &Project) -> PathBuf {
    p.write(
        "sum/problem.yaml",
        "problem_format_version: 2025-09\nname: Sum\nlimits: {time_limit: 2}\n",
    );
    p.write(
        "sum/generators/gen.py",
        "import sys\nargs = dict(a.split('=') for a in sys.argv[1:] if '=' in a)\n\
         seed = int(sys.argv[1])\nprint(seed % 1000, int(args.get('n', '0')))\n",
    );
    p.write("sum/generators/manual/big.in", "1000000 2000000\n");
    // BAPCtools' other convention: the input written as `testcase.in` in the
    // generator's working folder, its standard output ignored.
    p.write(
        "sum/generators/to_file.py",
        "open('testcase.in', 'w').write('40 2\\n')\nprint('not the input')\n",
    );
    p.write(
        "sum/generators/generators.yaml",
        "solution: /submissions/accepted/sum.py\n\
         data:\n\
         \x20 sample:\n\
         \x20   data:\n\
         \x20     - '': {in: '1 2', ans: '3'}\n\
         \x20 secret:\n\
         \x20   include: [sample]\n\
         \x20   data:\n\
         \x20     rand: gen.py {seed} n=5\n\
         \x20     big: {copy: manual/big}\n\
         \x20     many: {generate: 'gen.py {seed:1} n={count}', count: 3}\n\
         \x20     scripted: builder 7\n\
         \x20     written: to_file.py\n",
    );
    std::fs::create_dir_all(p.path("sum/generators/builder")).expect("mkdir");
    p.write("sum/generators/builder/run", "#!/bin/sh\necho 1 1\n");
    p.write(
        "sum/submissions/accepted/sum.py",
        "a, b = map(int, input().split())\nprint(a + b)\n",
    );
    // Right while sums stay below a million: the copied test catches it.
    p.write(
        "sum/submissions/wrong_answer/small.py",
        "a, b = map(int, input().split())\nprint((a + b) % 1000000)\n",
    );
    p.path("sum")
}

#[test]
fn a_package_made_by_generators_yaml_is_generated_and_judged() {
    let p = Project::empty();
    let pkg = sum_package(&p);
    assert!(!pkg.join("data").exists());
    let r = judge(&p, &pkg, &pkg.join("submissions/accepted/sum.py"));
    assert_eq!(r["verdict"], "AC", "{r:#}");
    // 1 sample + rand + big + 3 counted + written + the one made by a
    // folder's `run` script.
    let tests = r["tests"].as_array().expect("tests");
    assert_eq!(tests.len(), 8, "{r:#}");
    let r = judge(&p, &pkg, &pkg.join("submissions/wrong_answer/small.py"));
    assert_eq!(r["verdict"], "WA", "{r:#}");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("`include:` not read"), "{text}");
    // The generated input carries the seed BAPCtools computes for
    // `gen.py {seed} n=5`: int(sha512(b"gen.py {seed} n=5"), 16) % 2**31.
    let out = p.grundy(&[
        "gen",
        &pkg.to_string_lossy(),
        "--out",
        &p.path("gen").to_string_lossy(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let inputs: Vec<String> = walkdir::WalkDir::new(p.path("gen"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "in"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    assert!(
        inputs.contains(&"40 2\n".to_string()),
        "the input the generator wrote to testcase.in is missing: {inputs:?}"
    );
    assert!(
        inputs.contains(&"1 1\n".to_string()),
        "the input of the `run` script generator is missing: {inputs:?}"
    );
    let seed: u64 = 297_249_354;
    let expected = format!("{} 5\n", seed % 1000);
    assert!(
        inputs.contains(&expected),
        "no input {expected:?} among {inputs:?}"
    );
}

/// An input validator that takes `--max M` and rejects any number above it.
const BOUNDED: &str = "import sys\n\
args = sys.argv[1:]\n\
m = int(args[args.index('--max') + 1]) if '--max' in args else 10**18\n\
nums = [int(x) for x in sys.stdin.read().split()]\n\
sys.exit(42 if all(0 <= x <= m for x in nums) else 43)\n";

fn bounded_package(p: &Project, big_args: &str) -> PathBuf {
    p.write(
        "bound/problem.yaml",
        "problem_format_version: 2023-07\nname: Echo\nlimits: {time_limit: 2}\n",
    );
    p.write("bound/input_validators/bounded.py", BOUNDED);
    p.write("bound/data/sample/1.in", "5\n");
    p.write("bound/data/sample/1.ans", "5\n");
    p.write(
        "bound/data/secret/testdata.yaml",
        "input_validator_args: [--max, \"10\"]\n",
    );
    p.write("bound/data/secret/small/1.in", "7\n");
    p.write("bound/data/secret/small/1.ans", "7\n");
    p.write("bound/data/secret/big/testdata.yaml", big_args);
    p.write("bound/data/secret/big/1.in", "50\n");
    p.write("bound/data/secret/big/1.ans", "50\n");
    p.write("bound/submissions/accepted/echo.py", "print(input())\n");
    p.path("bound")
}

#[test]
fn input_validator_args_are_inherited_and_overridden_per_validator() {
    let p = Project::empty();
    // `big/` gives the validator named `bounded` its own bound.
    let pkg = bounded_package(&p, "input_validator_args: {bounded: [--max, \"100\"]}\n");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    // Without it, `big/` inherits `--max 10` from secret/ and its 50 breaks it.
    let p = Project::empty();
    let pkg = bounded_package(&p, "");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("bounded.py given `--max 10` rejects"),
        "{text}"
    );
}

#[test]
fn submissions_yaml_language_and_entrypoint_decide_how_it_is_built() {
    let p = Project::empty();
    p.write(
        "echo/problem.yaml",
        "problem_format_version: 2025-09\nname: Echo\nlimits: {time_limit: 2}\n",
    );
    p.write("echo/data/sample/1.in", "5\n");
    p.write("echo/data/sample/1.ans", "5\n");
    p.write("echo/data/secret/1.in", "8\n");
    p.write("echo/data/secret/1.ans", "8\n");
    p.write("echo/submissions/accepted/echo.py", "print(input())\n");
    // main.py would be run by default and is wrong; the entry point is right.
    p.write("echo/submissions/accepted/pair/main.py", "print(0)\n");
    p.write(
        "echo/submissions/accepted/pair/right.py",
        "print(input())\n",
    );
    // A C++ program in a file whose extension says nothing.
    p.write(
        "echo/submissions/accepted/plain.txt",
        "#include <iostream>\nint main(){long long x; std::cin>>x; std::cout<<x<<\"\\n\";}\n",
    );
    p.write("echo/submissions/accepted/other.kt", "fun main() {}\n");
    p.write(
        "echo/submissions/submissions.yaml",
        "accepted/pair:\n  language: python3\n  entrypoint: right.py\n\
         accepted/plain.txt:\n  language: cpp\n\
         accepted/other.kt:\n  language: kotlin\n",
    );
    let (code, text) = verify(&p, &echo(&p));
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok  pair"), "{text}");
    assert!(text.contains("ok  plain.txt"), "{text}");
    assert!(
        text.contains("skipped: no toolchain for `kotlin`"),
        "{text}"
    );
    // Without the entry point, main.py runs and the rule catches it.
    p.write(
        "echo/submissions/submissions.yaml",
        "accepted/pair:\n  language: python3\naccepted/plain.txt:\n  language: cpp\n",
    );
    let (code, text) = verify(&p, &echo(&p));
    assert_eq!(code, Some(1), "{text}");
}

fn echo(p: &Project) -> PathBuf {
    p.path("echo")
}

#[test]
fn format_folders_keep_their_meaning_without_submissions_yaml() {
    let p = Project::empty();
    p.write("old/problem.yaml", "name: Old\n");
    p.write("old/.timelimit", "2\n");
    p.write("old/data/sample/1.in", "5\n");
    p.write("old/data/sample/1.ans", "5\n");
    p.write("old/data/secret/1.in", "8\n");
    p.write("old/data/secret/1.ans", "8\n");
    p.write("old/submissions/accepted/echo.py", "print(input())\n");
    // What problemtools judges as Python 2: skipped where there is no
    // Python 2, saying so, not a CE.
    p.write(
        "old/submissions/accepted/echo2.py",
        "#!/usr/bin/env python2\nprint raw_input()\n",
    );
    p.write("old/submissions/wrong_answer/zero.py", "print(0)\n");
    // On a machine without Python 2: every folder of PATH that holds a
    // `python2` (CI's set-up installs one for the tests that judge it) is
    // left out, and the cache is the test's own.
    let path = std::env::var("PATH").unwrap_or_default();
    let without: Vec<&str> = path
        .split(':')
        .filter(|d| !std::path::Path::new(d).join("python2").exists())
        .collect();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["verify", &p.path("old").to_string_lossy()])
        .arg("--problems")
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(p.path("cache"))
        .env("NO_COLOR", "1")
        .env("PATH", without.join(":"))
        .output()
        .expect("run grundy");
    let text = format!("{}\n{}", common::stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("skipped: Python 2 code") && text.contains("no Python 2 interpreter here"),
        "{text}"
    );
}
