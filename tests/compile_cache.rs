//! The compile cache: failed compiles are remembered with their log, the
//! judge's own files in an artefact folder are written without following
//! links a compiler planted, and `grundy cache show|clear` with the bounds.
//! Every test has a cache of its own (never the shared test cache, which
//! other tests fill at the same time).

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::Project;

/// `grundy --cache CACHE --problems … ARGS` with `env` set.
fn grundy(p: &Project, cache: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.arg("--problems")
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(cache)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GRUNDY_CACHE_MAX_SIZE")
        .env_remove("GRUNDY_CACHE_MAX_AGE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run grundy")
}

fn first_result(out: &Output) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            common::stdout(out),
            common::stderr(out)
        )
    });
    v["results"][0].clone()
}

#[test]
fn a_failed_compile_is_remembered_with_its_log() {
    let p = Project::toy("");
    // A compiler that fails with a message of its own making each time it
    // runs: a second identical message means it did not run again.
    let cfg = p.write(
        "langs.yaml",
        "languages:\n  - id: nonce\n    extensions: [nc]\n    source_name: main.nc\n    compile: [\"/bin/sh\", \"-c\", \"echo nonce-$(od -An -N8 -tx8 /dev/urandom) >&2; exit 1\"]\n    run: [\"/bin/true\"]\n",
    );
    let cfg = cfg.to_string_lossy().into_owned();
    let sub = p.write("subs/broken.nc", "whatever\n");
    let sub = sub.to_string_lossy().into_owned();
    let cache = p.path("cache");
    let judge = || {
        first_result(&grundy(
            &p,
            &cache,
            &["--languages", &cfg, "judge", "toy", &sub, "--json"],
            &[],
        ))
    };
    let first = judge();
    assert_eq!(first["verdict"], "CE", "{first:#}");
    let log = first["compile"]["log"].as_str().unwrap_or("").to_string();
    assert!(log.contains("nonce-"), "{first:#}");
    let second = judge();
    assert_eq!(second["verdict"], "CE", "{second:#}");
    assert_eq!(second["compile"]["log"].as_str(), Some(log.as_str()));
}

#[test]
fn planted_links_in_the_artefact_folder_are_not_followed() {
    let p = Project::toy("");
    let victim = p.write("victim.txt", "precious\n");
    // The "compiler" builds the program and plants links named like every
    // file the judge writes or reads there, pointing at the victim.
    let script = format!(
        "cp \"$0\" main && chmod 755 main && ln -s {v} compile.log && ln -s {v} main-class && ln -s {v} compile-failed.log",
        v = victim.display()
    );
    let cfg = p.write(
        "langs.yaml",
        &format!(
            "languages:\n  - id: planter\n    extensions: [pl1]\n    source_name: main.pl1\n    compile: [\"/bin/sh\", \"-c\", {script:?}, \"{{src}}\"]\n    run: [\"{{bin}}\"]\n"
        ),
    );
    let cfg = cfg.to_string_lossy().into_owned();
    let solution = "#!/bin/sh\nread n\nread line\nx=0\nfor a in $line; do x=$((x ^ a)); done\nif [ $x -ne 0 ]; then echo Alice; else echo Bob; fi\n";
    let sub = p.write("subs/nim.pl1", solution);
    let sub = sub.to_string_lossy().into_owned();
    let cache = p.path("cache");
    let out = grundy(
        &p,
        &cache,
        &["--languages", &cfg, "judge", "toy", &sub, "--json"],
        &[],
    );
    let r = first_result(&out);
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious\n"
    );
    assert_eq!(r["verdict"], "AC", "{r:#}\n{}", common::stderr(&out));
    assert!(
        !r["compile"]["log"]
            .as_str()
            .unwrap_or("")
            .contains("precious"),
        "{r:#}"
    );
}

fn show(p: &Project, cache: &Path, env: &[(&str, &str)]) -> serde_json::Value {
    let out = grundy(p, cache, &["cache", "show", "--json"], env);
    assert!(out.status.success(), "{}", common::stderr(&out));
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn cache_show_clear_and_the_size_bound() {
    let p = Project::toy("");
    let cache = p.path("cache");
    let sub = p.write("subs/ok.c", common::TOY_C);
    let sub = sub.to_string_lossy().into_owned();
    let judge = |env: &[(&str, &str)]| {
        let out = grundy(&p, &cache, &["judge", "toy", &sub, "--json"], env);
        assert_eq!(first_result(&out)["verdict"], "AC");
    };
    judge(&[]);
    let v = show(&p, &cache, &[]);
    assert_eq!(v["location"], cache.display().to_string());
    assert!(v["kinds"]["bin"]["entries"].as_u64() >= Some(1), "{v:#}");
    assert!(
        v["kinds"]["answers"]["entries"].as_u64() >= Some(1),
        "{v:#}"
    );
    assert_eq!(v["max_bytes"], 1u64 << 30);
    let before = v["entries"].as_u64().unwrap_or(0);
    // An entry no judge will ask for again.
    let stale = cache.join("answers/zz/unused.ans");
    std::fs::create_dir_all(stale.parent().expect("parent")).expect("mkdir");
    std::fs::write(&stale, "Bob\n").expect("write");
    // Within the default bounds it stays.
    judge(&[]);
    assert!(stale.exists());
    assert_eq!(show(&p, &cache, &[])["entries"].as_u64(), Some(before + 1));
    // A bound of one byte: the next judge starts by evicting everything,
    // then fills the cache again with what it needs, and only that.
    judge(&[("GRUNDY_CACHE_MAX_SIZE", "1")]);
    assert!(!stale.exists(), "the unused entry survived a 1-byte bound");
    let bounded = show(&p, &cache, &[("GRUNDY_CACHE_MAX_SIZE", "1")]);
    assert_eq!(bounded["max_bytes"], 1);
    assert_eq!(bounded["entries"].as_u64(), Some(before), "{bounded:#}");
    let cleared = grundy(&p, &cache, &["cache", "clear"], &[]);
    assert!(cleared.status.success(), "{}", common::stderr(&cleared));
    assert!(
        common::stdout(&cleared).contains(&format!("removed {before} entries")),
        "{}",
        common::stdout(&cleared)
    );
    assert_eq!(show(&p, &cache, &[])["entries"], 0);
    // And it still works after a clear.
    judge(&[]);
    assert_eq!(show(&p, &cache, &[])["entries"].as_u64(), Some(before));
}

#[test]
fn a_bad_cache_setting_is_bad_usage() {
    let p = Project::toy("");
    let cache = p.path("cache");
    let out = grundy(
        &p,
        &cache,
        &["cache", "show"],
        &[("GRUNDY_CACHE_MAX_AGE", "soon")],
    );
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains("GRUNDY_CACHE_MAX_AGE"),
        "{}",
        common::stderr(&out)
    );
}

#[test]
fn judges_sharing_a_tightly_bounded_cache_do_not_break_each_other() {
    let p = Project::toy("");
    let cache = p.path("cache");
    let sub = p.write("subs/ok.c", common::TOY_C);
    // Under a 1-byte bound every judge that finds the cache alone empties
    // it first; one that starts while another runs must wait or skip, never
    // take the other's program or answers from under it.
    for round in 0..3 {
        let judges: Vec<_> = (0..2)
            .map(|_| {
                Command::new(env!("CARGO_BIN_EXE_grundy"))
                    .arg("--problems")
                    .arg(p.path("problems"))
                    .arg("--cache")
                    .arg(&cache)
                    .args(["judge", "toy"])
                    .arg(&sub)
                    .arg("--json")
                    .env("GRUNDY_CACHE_MAX_SIZE", "1")
                    .env_remove("GRUNDY_CACHE_MAX_AGE")
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("spawn grundy")
            })
            .collect();
        for j in judges {
            let out = j.wait_with_output().expect("wait");
            let r = first_result(&out);
            assert_eq!(r["verdict"], "AC", "round {round}: {r:#}");
        }
    }
}

/// A correct Rust solution of the toy problem.
const TOY_RS: &str = "use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let x = s.split_whitespace().skip(1).fold(0u64, |x, a| x ^ a.parse::<u64>().unwrap());
    println!(\"{}\", if x != 0 { \"Alice\" } else { \"Bob\" });
}
";

#[test]
fn a_cached_rust_program_asks_rustup_nothing() {
    // A rustup proxy of our own, as rustup installs them (`rustc` a link to
    // `rustup`), that writes down every call before running the real rustc.
    let path = std::env::var_os("PATH").expect("PATH");
    let real = std::env::split_paths(&path)
        .map(|d| d.join("rustc"))
        .find(|p| p.is_file())
        .expect("rustc on PATH (the tests build Rust programs)");
    let p = Project::toy("");
    let calls = p.path("rustc-calls.log");
    let proxy = p.write(
        "toolchain/rustup",
        &format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            calls.display(),
            real.display()
        ),
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&proxy, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::os::unix::fs::symlink("rustup", p.path("toolchain/rustc")).expect("symlink");
    let mut dirs = vec![p.path("toolchain")];
    dirs.extend(std::env::split_paths(&path));
    let path = std::env::join_paths(dirs).expect("PATH");
    let path = path.to_string_lossy().into_owned();
    let sub = p.write("subs/toy.rs", TOY_RS);
    let sub = sub.to_string_lossy().into_owned();
    let cache = p.path("cache");
    let judge = || {
        let out = grundy(
            &p,
            &cache,
            &["judge", "toy", &sub, "--json"],
            &[("PATH", &path)],
        );
        first_result(&out)
    };
    let calls_now = || {
        std::fs::read_to_string(&calls)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let first = judge();
    assert_eq!(first["verdict"], "AC", "{first:#}");
    // Compiling asked the proxy where the real rustc is.
    let asked = calls_now();
    assert!(asked >= 1, "the proxy was not used");
    let second = judge();
    assert_eq!(second["verdict"], "AC", "{second:#}");
    assert_eq!(
        calls_now(),
        asked,
        "a judging from the cache ran rustup: {}",
        std::fs::read_to_string(&calls).unwrap_or_default()
    );
}
