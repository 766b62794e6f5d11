//! `grundy export`: the package it writes has every part the ICPC format
//! asks for, reads back into grundy with the same verdicts, and (where
//! problemtools is installed, as CI's setup installs it) every problem's
//! export passes the format's reference checker, `verifyproblem`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{problemtools, stderr, stdout};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn export(id: &str, to: &Path) -> std::process::Output {
    common::grundy_in(
        &repo("problems"),
        &["export", id, "--to", &to.to_string_lossy()],
    )
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_package_has_every_part_of_the_format() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = tmp.path().join("nim");
    let out = export("nim", &pkg);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("3 samples"), "{}", stderr(&out));
    let yaml = read(&pkg.join("problem.yaml"));
    for line in [
        "name: \"Nim\"",
        "memory: 256",
        "validation: default",
        "validator_flags: \"case_sensitive\"",
    ] {
        assert!(yaml.contains(line), "{line} missing:\n{yaml}");
    }
    assert_eq!(read(&pkg.join(".timelimit")), "1\n");
    assert_eq!(read(&pkg.join("data/sample/sample-1.in")), "3\n1 2 3\n");
    assert_eq!(read(&pkg.join("data/sample/sample-1.ans")), "Bob\n");
    assert!(pkg.join("data/secret/01-small/small-01.ans").is_file());
    let tex = read(&pkg.join("problem_statement/problem.en.tex"));
    assert!(tex.starts_with("\\problemname{Nim}"), "{tex}");
    assert!(
        tex.contains("\\section*{Input}") && !tex.contains("Samples"),
        "{tex}"
    );
    assert!(pkg.join("submissions/accepted/nim.rs").is_file());
    assert!(
        pkg.join("submissions/accepted/Main.java").is_file(),
        "Java files take their class name"
    );
    assert!(pkg.join("submissions/wrong_answer/misere_rule.c").is_file());
    assert!(pkg.join("input_validators/validate/validate.py").is_file());
    // The input validator accepts the tests and rejects a pile out of bounds.
    let validator = pkg.join("input_validators/validate/validate.py");
    let check = |input: &str| {
        let mut child = Command::new("python3")
            .arg(&validator)
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("python3");
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
        child.wait_with_output().expect("wait").status.code()
    };
    assert_eq!(check("3\n1 2 3\n"), Some(42));
    assert_eq!(check("2\n1 10001\n"), Some(43));
    assert_eq!(check("2\n1\n"), Some(43));
    // Not into a folder that holds something already.
    let again = export("nim", &pkg);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("is not empty"),
        "{}",
        stderr(&again)
    );
}

/// The export of the problem with a game checker reads back into grundy as
/// an ICPC package (its C++ validator built and run by grundy) and every
/// known submission keeps its verdict.
#[test]
fn an_export_reads_back_with_the_same_verdicts() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = tmp.path().join("nimwinningmove");
    let out = export("nim-winning-move", &pkg);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(read(&pkg.join("problem.yaml")).contains("validation: custom"));
    assert!(
        pkg.join("output_validators/validator/validate.cpp")
            .is_file()
    );
    let out = common::grundy_in(
        &repo("problems"),
        &["verify", &pkg.to_string_lossy(), "--jobs", "2"],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    assert!(text.contains("ok  zero_based.cpp"), "{text}");
}

/// The setter's own input validator (`grundy new` writes one, listed as
/// `input_validators: [validator.py]`) is the package's, so a contest's
/// tools refuse an input it refuses: verifyproblem passes the export as
/// written and fails it once an invalid input is added to its tests.
#[test]
fn the_setters_input_validator_is_exported_and_enforced() {
    let tmp = tempfile::tempdir().expect("tmp");
    let problems = tmp.path().join("problems");
    std::fs::create_dir_all(&problems).expect("mkdir");
    let made = common::grundy_in(&problems, &["new", "takethree"]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let pkg = tmp.path().join("takethree");
    let out = common::grundy_in(
        &problems,
        &["export", "takethree", "--to", &pkg.to_string_lossy()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("accepts any input"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        read(&pkg.join("input_validators/validator/validator.py")),
        read(&problems.join("takethree/validator.py")),
        "the setter's validator, as written"
    );
    assert!(
        !pkg.join("input_validators/validate").exists(),
        "no validator accepting anything beside it"
    );
    if !problemtools::have("verifyproblem") {
        return;
    }
    let config = problemtools::config(tmp.path());
    let verified = problemtools::verifyproblem(&pkg, &config);
    assert!(verified.ok, "{}", verified.errors);
    // A pile of 0 stones: the statement says 1 <= n.
    let small = pkg.join("data/secret/01-small");
    std::fs::write(small.join("zz-invalid.in"), "2\n0\n5\n").expect("write");
    std::fs::write(small.join("zz-invalid.ans"), "Second\nFirst\n").expect("write");
    let verified = problemtools::verifyproblem(&pkg, &config);
    assert!(!verified.ok, "an invalid input passed: {}", verified.errors);
    assert!(
        verified.errors.contains("did not accept input")
            && verified.errors.contains("zz-invalid.in")
            && verified.errors.contains("n = 0 is outside 1..1000000000"),
        "{}",
        verified.errors
    );
}

#[test]
fn every_export_passes_verifyproblem() {
    if !problemtools::have("verifyproblem") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let config = problemtools::config(tmp.path());
    let mut ids: Vec<String> = std::fs::read_dir(repo("problems"))
        .expect("problems")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("problem.yaml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    // The 17 judged problems and the 4 played ones, whose export carries
    // a Python interactor (`validation: custom interactive`); five of them
    // are described games (`game:`) with no reference.
    assert_eq!(ids.len(), 21, "{ids:?}");
    for played in ["kayles-play", "misere-nim-play", "nim-play", "wythoff-play"] {
        assert!(ids.iter().any(|i| i == played), "{played} missing: {ids:?}");
    }
    let packages: Vec<PathBuf> = ids
        .iter()
        .map(|id| {
            let pkg = tmp.path().join(id.replace('-', ""));
            let out = export(id, &pkg);
            assert_eq!(out.status.code(), Some(0), "{id}: {}", stderr(&out));
            if id.ends_with("-play") {
                let yaml = read(&pkg.join("problem.yaml"));
                assert!(
                    yaml.contains("validation: custom interactive"),
                    "{id}: {yaml}"
                );
            }
            pkg
        })
        .collect();
    // Two at a time: the machine has two cores.
    let results: Vec<problemtools::Verified> = std::thread::scope(|s| {
        let handles: Vec<_> = packages
            .chunks(packages.len().div_ceil(2))
            .map(|chunk| {
                let config = &config;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|pkg| problemtools::verifyproblem(pkg, config))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });
    let failed: Vec<String> = results
        .iter()
        .filter(|r| !r.ok)
        .map(|r| format!("{}:\n{}", r.name, r.errors))
        .collect();
    assert!(
        failed.is_empty(),
        "verifyproblem found errors:\n{}",
        failed.join("\n")
    );
}

/// A validator that bounds n by its `--max-n` argument.
const MAX_N_VALIDATOR: &str = r#"import sys
args = sys.argv[1:]
max_n = int(args[args.index("--max-n") + 1]) if "--max-n" in args else 10**9
words = sys.stdin.read().split()
for n in map(int, words[1:]):
    if not 1 <= n <= max_n:
        sys.stderr.write(f"n = {n} is over --max-n {max_n}\n")
        sys.exit(43)
sys.exit(42)
"#;

/// The spec's `input_validator_args:` reach the setter's validators in
/// `verify`, a group's own replacing the problem's, and the export's
/// `testdata.yaml` files give the package's validators the same: a bound
/// one group breaks fails both, on that group's test.
#[test]
fn input_validator_args_reach_the_validators_here_and_in_the_export() {
    let tmp = tempfile::tempdir().expect("tmp");
    let problems = tmp.path().join("problems");
    std::fs::create_dir_all(&problems).expect("mkdir");
    let made = common::grundy_in(&problems, &["new", "takethree"]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let dir = problems.join("takethree");
    std::fs::write(dir.join("validator.py"), MAX_N_VALIDATOR).expect("write");
    let spec = read(&dir.join("problem.yaml"));
    let with = |small_max: &str| {
        let text = spec
            .replace(
                "input_validators: [validator.py]\n",
                "input_validators: [validator.py]\ninput_validator_args: [--max-n, \"1000000000\"]\n",
            )
            .replace(
                "  - name: small\n    points: 40\n",
                &format!("  - name: small\n    points: 40\n    input_validator_args: [--max-n, \"{small_max}\"]\n"),
            );
        assert_ne!(text, spec, "the skeleton's spec changed");
        std::fs::write(dir.join("problem.yaml"), text).expect("write");
    };
    let verify = |what: &Path| common::grundy_in(&problems, &["verify", &what.to_string_lossy()]);
    // The small group's tests have n <= 30; the large one's up to 10^9.
    with("30");
    let out = verify(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    // "4\n2\n3\n4\n5\n", the small group's second test, has n = 5.
    with("4");
    let out = verify(&dir);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}\n{}", stderr(&out));
    assert!(text.contains("n = 5 is over --max-n 4"), "{text}");

    let pkg = tmp.path().join("takethree");
    let out = common::grundy_in(
        &problems,
        &["export", "takethree", "--to", &pkg.to_string_lossy()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(&pkg.join("data/testdata.yaml")),
        "input_validator_flags: \"--max-n 1000000000\"\n"
    );
    assert_eq!(
        read(&pkg.join("data/secret/01-small/testdata.yaml")),
        "input_validator_flags: \"--max-n 4\"\n"
    );
    assert!(!pkg.join("data/secret/02-large/testdata.yaml").exists());
    let out = verify(&pkg);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}\n{}", stderr(&out));
    assert!(text.contains("n = 5 is over --max-n 4"), "{text}");
    assert!(text.contains("01-small"), "{text}");
}
