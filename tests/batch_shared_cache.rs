//! A compile cache shared by graders on several nodes (a folder on a
//! shared file system, docs/batch.md): two graders filling one empty cache
//! at the same moment both finish, agree, leave no half-written entry, and
//! a third grader then compiles nothing.
//!
//! The compile step is a shell line that logs each run and then waits
//! until the other grader has started compiling too (a barrier on the log,
//! bounded), so the two really write the same entry at once however the
//! machine schedules them.

mod batch_support;

use std::path::Path;
use std::process::Command;

use batch_support::*;

const STUDENTS: usize = 4;

fn grade(cfg: &Path, class: &Path, out: &Path, cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grundy"));
    c.arg("grade")
        .arg(class)
        .args(["--problem", "xor", "--jobs", "1", "--sandbox", "off"])
        .arg("--out")
        .arg(out)
        .arg("--languages")
        .arg(cfg)
        .arg("--problems")
        .arg(problems())
        .arg("--cache")
        .arg(cache)
        .env("NO_COLOR", "1");
    c
}

#[test]
fn two_graders_fill_one_shared_cache_at_once() {
    let t = tempfile::tempdir().expect("tempdir");
    let log = t.path().join("compiles.log");
    // The sandbox would rightly stop the compile step's write to the log,
    // hence `--sandbox off` above.
    let cfg = t.path().join("langs.yaml");
    let step = format!(
        "echo run >> {log} && i=0 && while [ $(wc -l < {log}) -lt 2 ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done && cc -O2 -o {{bin}} {{src}}",
        log = log.display()
    );
    write(
        &cfg,
        &format!(
            "languages:\n  - id: logged-c\n    extensions: [lc]\n    source_name: main.c\n    compile: [\"/bin/sh\", \"-c\", {step:?}]\n    run: [\"{{bin}}\"]\n"
        ),
    );
    let class = t.path().join("class");
    for s in 0..STUDENTS {
        // Distinct files: each is a cache entry of its own.
        write(
            &class.join(format!("student{s}.lc")),
            &format!("{}\n/* {s} */\n", template("xor_ok.c")),
        );
    }
    let cache = t.path().join("shared-cache");
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    let first = grade(&cfg, &class, &a, &cache).spawn().expect("spawn");
    let second = grade(&cfg, &class, &b, &cache).spawn().expect("spawn");
    for (name, child) in [("first", first), ("second", second)] {
        let out = child.wait_with_output().expect("wait");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name} grader: {}",
            text(&out.stderr)
        );
    }
    let compiles = || {
        std::fs::read_to_string(&log)
            .map(|s| s.lines().count())
            .unwrap_or(0)
    };
    let filled = compiles();
    // The barrier held both graders in their first compile, of the same
    // file: both wrote that entry.
    assert!(
        (STUDENTS + 1..=2 * STUDENTS).contains(&filled),
        "{filled} compiles for {STUDENTS} files by two graders"
    );
    assert_same_reports(&a, &b);
    // Nothing half-written is left where work in progress goes.
    let leftovers: Vec<_> = std::fs::read_dir(cache.join("tmp"))
        .expect("cache tmp")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // Every entry is complete: a third grader compiles nothing.
    let third = grade(&cfg, &class, &t.path().join("c"), &cache)
        .output()
        .expect("run");
    assert_eq!(third.status.code(), Some(0), "{}", text(&third.stderr));
    assert_eq!(compiles(), filled, "the third grader compiled again");
    assert_same_reports(&a, &t.path().join("c"));
}

/// Where `name` is on PATH.
fn on_path(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Every file under `dir` whose name ends with `suffix`.
fn files_ending(dir: &Path, suffix: &str) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                found.push(p);
            }
        }
    }
    found
}

/// Two graders sharing one empty cache both need the precompiled
/// `bits/stdc++.h` and build it at the same moment: both accept their
/// sources, the cache ends with exactly one `.gch`, and that one is whole:
/// a third grader compiles with it (its header copy replaced by one that
/// cannot compile, so only the precompiled form can have been read).
///
/// The compiler is `g++` behind a wrapper that, when asked to precompile
/// the header, logs it and waits (bounded) until the other grader is
/// precompiling too, so the two builds really overlap.
#[test]
fn two_graders_build_the_precompiled_header_at_once() {
    let Some(gpp) = on_path("g++") else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "g++ is needed on CI"
        );
        eprintln!("skipped: no g++ here");
        return;
    };
    let t = tempfile::tempdir().expect("tempdir");
    let log = t.path().join("precompiles.log");
    let wrapper = t.path().join("bin/g++");
    write(
        &wrapper,
        &format!(
            "#!/bin/sh\ncase \" $* \" in *\" c++-header \"*)\n  echo pch >> {log}\n  i=0\n  while [ $(wc -l < {log}) -lt 2 ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done;;\nesac\nexec {gpp} \"$@\"\n",
            log = log.display(),
            gpp = gpp.display()
        ),
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let cfg = t.path().join("langs.yaml");
    write(
        &cfg,
        &format!(
            "languages:\n  - id: wrapped-cpp\n    extensions: [wcc]\n    source_name: main.cpp\n    compile: [{:?}, \"-O2\", \"-o\", \"{{bin}}\", \"{{src}}\"]\n    run: [\"{{bin}}\"]\n",
            wrapper.display().to_string()
        ),
    );
    let source = |who: &str| {
        format!(
            "#include <bits/stdc++.h>\n// {who}\nint main() {{ int n, a, x = 0; if (!(std::cin >> n)) return 1; \
             while (n-- > 0 && std::cin >> a) x ^= a; std::cout << (x ? \"Alice\" : \"Bob\") << \"\\n\"; }}\n"
        )
    };
    let cache = t.path().join("shared-cache");
    let mut children = Vec::new();
    for who in ["a", "b"] {
        let class = t.path().join(format!("class-{who}"));
        write(&class.join(format!("{who}.wcc")), &source(who));
        let out = t.path().join(format!("out-{who}"));
        children.push((
            who,
            grade(&cfg, &class, &out, &cache).spawn().expect("spawn"),
        ));
    }
    for (who, child) in children {
        let out = child.wait_with_output().expect("wait");
        // 0: every submission accepted.
        assert_eq!(
            out.status.code(),
            Some(0),
            "grader {who}: {}",
            text(&out.stderr)
        );
    }
    let builds = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(
        builds.lines().count(),
        2,
        "both graders precompiled: {builds}"
    );
    let gch = files_ending(&cache, "stdc++.h.gch");
    assert_eq!(gch.len(), 1, "one precompiled header in the cache: {gch:?}");
    let header = gch[0].with_file_name("stdc++.h");
    assert!(header.is_file(), "{header:?}");
    std::fs::write(&header, "#error the precompiled header was not used\n").expect("write");
    let class = t.path().join("class-c");
    write(&class.join("c.wcc"), &source("c"));
    let out = t.path().join("out-c");
    let third = grade(&cfg, &class, &out, &cache).output().expect("run");
    assert_eq!(third.status.code(), Some(0), "{}", text(&third.stderr));
    assert_eq!(
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count(),
        2,
        "the third grader found the header built"
    );
}
