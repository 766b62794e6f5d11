//! The command line: list, gen, judge's exit codes and JSON shape.

mod common;

use std::path::Path;

use common::{Project, grundy_in, stderr, stdout};

fn catalog() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/problems"))
}

#[test]
fn list_shows_every_problem_with_title_limits_and_source() {
    let out = grundy_in(catalog(), &["list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let nim = text
        .lines()
        .find(|l| l.starts_with("nim "))
        .unwrap_or_else(|| panic!("no nim row:\n{text}"));
    assert!(
        nim.contains("1s") && nim.contains("256 MiB") && nim.contains("hihoCoder 1163"),
        "{nim}"
    );
}

#[test]
fn list_json_is_machine_readable() {
    let out = grundy_in(catalog(), &["list", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let nim = rows
        .as_array()
        .and_then(|a| a.iter().find(|r| r["id"] == "nim"))
        .expect("nim listed");
    assert_eq!(nim["time_ms"], 1000);
    assert_eq!(nim["memory_kib"], 256 * 1024);
}

#[test]
fn judge_json_has_the_spec_fields() {
    let p = Project::toy("");
    let r = p.judge_source("ok.c", common::TOY_C, &[]);
    for key in [
        "submission",
        "problem",
        "language",
        "verdict",
        "score",
        "compile",
        "tests",
    ] {
        assert!(r.get(key).is_some(), "missing {key}: {r:#}");
    }
    let t = &r["tests"][0];
    for key in [
        "name",
        "group",
        "verdict",
        "time_ms",
        "wall_ms",
        "memory_kib",
        "exit_code",
        "signal",
        "message",
    ] {
        assert!(t.get(key).is_some(), "missing tests[].{key}: {t:#}");
    }
    assert_eq!(t["name"], "sample-1");
    assert_eq!(t["group"], "sample");
    assert_eq!(r["tests"][1]["name"], "small-1");
    assert!(r["isolation"].as_str().is_some_and(|s| !s.is_empty()));
}

#[test]
fn judge_exit_codes_follow_the_spec() {
    let p = Project::toy("");
    let ok = p.write("subs/ok.c", common::TOY_C);
    let wrong = p.write(
        "subs/wrong.c",
        "#include <stdio.h>\nint main(void){puts(\"Bob\");return 0;}\n",
    );
    let run = |f: &Path| {
        p.grundy(&["judge", "toy", &f.to_string_lossy()])
            .status
            .code()
    };
    assert_eq!(run(&ok), Some(0));
    assert_eq!(run(&wrong), Some(1));
    assert_eq!(run(&p.path("subs/missing.c")), Some(2));
    let usage = p.grundy(&["judge", "toy"]);
    assert_eq!(
        usage.status.code(),
        Some(2),
        "a missing argument is bad usage"
    );
}

#[test]
fn several_submissions_in_one_call() {
    let p = Project::toy("");
    let a = p.write("subs/a.c", common::TOY_C);
    let b = p.write("subs/b.py", "print('Bob')\n");
    let out = p.grundy(&[
        "judge",
        "toy",
        &a.to_string_lossy(),
        &b.to_string_lossy(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["results"][0]["verdict"], "AC");
    assert_eq!(v["results"][1]["verdict"], "WA");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn terminal_view_names_the_first_wrong_line() {
    let p = Project::toy("");
    let f = p.write(
        "subs/alice.c",
        "#include <stdio.h>\nint main(void){puts(\"Alice\");return 0;}\n",
    );
    let out = p.grundy(&["judge", "toy", &f.to_string_lossy()]);
    let text = stdout(&out);
    assert!(
        text.contains("WA sample-1: line 1, token 1: expected \"Bob\", got \"Alice\""),
        "{text}"
    );
    assert!(!text.contains("\x1b["), "NO_COLOR is set: no escape codes");
}

#[test]
fn gen_is_reproducible_from_a_seed() {
    let t = tempfile::tempdir().expect("tmp");
    let dir = |name: &str| t.path().join(name).to_string_lossy().into_owned();
    for (name, seed) in [("a", "5"), ("b", "5"), ("c", "6")] {
        let out = grundy_in(
            catalog(),
            &["gen", "nim", "--seed", seed, "--out", &dir(name)],
        );
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let read_all = |name: &str| {
        let mut files: Vec<_> = std::fs::read_dir(t.path().join(name))
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        files
            .iter()
            .map(|f| {
                (
                    f.file_name().map(|n| n.to_owned()),
                    std::fs::read(f).expect("read"),
                )
            })
            .collect::<Vec<_>>()
    };
    let (a, b, c) = (read_all("a"), read_all("b"), read_all("c"));
    assert!(
        a.iter()
            .any(|(n, _)| n.as_ref().is_some_and(|n| n == "sample-1.in"))
    );
    assert!(
        a.iter()
            .any(|(n, _)| n.as_ref().is_some_and(|n| n == "sample-1.ans"))
    );
    assert_eq!(a, b, "same seed, same bytes");
    assert_ne!(a, c, "another seed, other tests");
}

#[test]
fn relative_cache_and_problem_paths_work() {
    let p = Project::toy("");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(p.dir.path())
        .args([
            "judge",
            "toy",
            "reference/toy.c",
            "--problems",
            "problems",
            "--cache",
            "cache",
            "--json",
        ])
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["results"][0]["verdict"], "AC", "{v:#}");
}

/// Every subcommand's own help opens with the line the command list gives
/// it: the subcommands' arguments are defined only when one is run, and an
/// argument struct's doc comment would then replace the subcommand's about.
#[test]
fn each_subcommand_help_opens_with_its_line_in_the_command_list() {
    let out = grundy_in(catalog(), &["--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let listed: Vec<(String, String)> = text
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| {
            let (name, about) = l.trim().split_once(char::is_whitespace)?;
            Some((name.to_string(), about.trim().to_string()))
        })
        .filter(|(name, _)| name != "help")
        .collect();
    assert!(listed.len() > 10, "commands not found in:\n{text}");
    for (name, about) in listed {
        let out = grundy_in(catalog(), &[&name, "-h"]);
        assert!(out.status.success(), "{name} -h: {}", stderr(&out));
        let help = stdout(&out);
        assert_eq!(
            help.lines().next(),
            Some(about.as_str()),
            "{name} -h:\n{help}"
        );
    }
}
