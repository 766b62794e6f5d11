//! The three executables: `grundy`, which judges and carries neither a
//! source parser nor the server (so that every judging starts without
//! loading them); `grundy-parsers`, to which `grundy` hands the commands
//! that parse source code (`mutants`, `similar`, `grade --similarity`,
//! `verify --mutants`); and `grundy-serve`, to which it hands `serve` and
//! `judgehost`. On x86-64 Linux all three are static PIEs: they load no
//! shared library at start (see `.cargo/config.toml`).

mod common;

use std::process::Command;

/// Text each parser leaves in an executable that links it: the paths of
/// its sources in panic locations, which stripping symbols keeps.
const PARSER_MARKS: &[&str] = &["/tree-sitter-", "/syn-"];

/// Text the server's libraries leave in an executable that links them
/// (as [`PARSER_MARKS`]): tokio and axum, and the SQLite built into it.
const SERVER_MARKS: &[&str] = &["/tokio-", "/axum-", "SQLite format 3"];

fn holds(bytes: &[u8], mark: &str) -> bool {
    bytes.windows(mark.len()).any(|w| w == mark.as_bytes())
}

#[test]
fn grundy_carries_no_source_parser_and_grundy_parsers_does() {
    let grundy = std::fs::read(env!("CARGO_BIN_EXE_grundy")).expect("grundy");
    let parsers = std::fs::read(env!("CARGO_BIN_EXE_grundy-parsers")).expect("grundy-parsers");
    for mark in PARSER_MARKS {
        assert!(holds(&parsers, mark), "grundy-parsers lacks {mark:?}");
        assert!(!holds(&grundy, mark), "grundy links a parser ({mark:?})");
    }
}

#[test]
fn grundy_carries_no_server_and_grundy_serve_does() {
    let grundy = std::fs::read(env!("CARGO_BIN_EXE_grundy")).expect("grundy");
    let serve = std::fs::read(env!("CARGO_BIN_EXE_grundy-serve")).expect("grundy-serve");
    for mark in SERVER_MARKS {
        assert!(holds(&serve, mark), "grundy-serve lacks {mark:?}");
        assert!(!holds(&grundy, mark), "grundy links the server ({mark:?})");
    }
}

#[test]
fn grundy_hands_a_parsing_command_over_and_says_so_when_it_cannot() {
    let p = common::Project::toy("");
    p.write("class/ann/toy.c", common::TOY_C);
    p.write("class/bob/toy.c", common::TOY_C);
    let class = p.path("class").to_string_lossy().into_owned();
    let out_dir = p.path("similar-out").to_string_lossy().into_owned();
    let args = ["similar", &class, "--out", &out_dir];
    // Beside grundy-parsers, as built: the command runs.
    let out = p.grundy(&args);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    assert!(p.path("similar-out/similarity.json").is_file());
    // A grundy alone in its folder judges, but cannot run `similar`.
    let alone = tempfile::tempdir().expect("tempdir");
    let copy = alone.path().join("grundy");
    std::fs::copy(env!("CARGO_BIN_EXE_grundy"), &copy).expect("copy");
    let run = |args: &[&str]| {
        Command::new(&copy)
            .args(args)
            .arg("--problems")
            .arg(p.path("problems"))
            .arg("--cache")
            .arg(p.path("cache"))
            .output()
            .expect("run the copy")
    };
    let reference = p.path("reference/toy.c").to_string_lossy().into_owned();
    let judged = run(&["judge", "toy", &reference]);
    assert_eq!(judged.status.code(), Some(0), "{}", common::stderr(&judged));
    let refused = run(&args);
    assert_eq!(
        refused.status.code(),
        Some(3),
        "{}",
        common::stderr(&refused)
    );
    let said = common::stderr(&refused);
    assert!(
        said.contains("grundy-parsers") && said.contains("cargo install --path ."),
        "{said}"
    );
    // Nor `judgehost` (nor `serve`), which grundy-serve runs.
    let token = p.path("host.token").to_string_lossy().into_owned();
    p.write("host.token", "t\n");
    let refused = run(&[
        "judgehost",
        "--server",
        "http://127.0.0.1:9/",
        "--token",
        &token,
    ]);
    assert_eq!(
        refused.status.code(),
        Some(3),
        "{}",
        common::stderr(&refused)
    );
    let said = common::stderr(&refused);
    assert!(
        said.contains("grundy-serve is not beside this grundy")
            && said.contains("cargo install --path ."),
        "{said}"
    );
}

#[test]
fn grundy_hands_serve_and_judgehost_over_with_the_same_command_line() {
    let p = common::Project::toy("");
    // grundy-serve answers for grundy: its checks of the arguments, its
    // exit codes and messages.
    let out = p.grundy(&[
        "judgehost",
        "--allow-weak-sandbox",
        "--server",
        "judge.example",
        "--token",
        "none",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    let said = common::stderr(&out);
    assert!(said.contains("--server judge.example"), "{said}");
    let out = p.grundy(&["serve", "--allow-weak-sandbox"]);
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert!(common::stderr(&out).contains("grundy serve --demo"));
}

/// What `readelf` says of `exe` (`-h`, `-l` or `-d`).
fn readelf(flag: &str, exe: &str) -> String {
    let out = Command::new("readelf")
        .args(["-W", flag, exe])
        .output()
        .expect("run readelf (binutils)");
    assert!(out.status.success(), "readelf {flag} {exe} failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Static PIEs: position-independent (the kernel still places them at a
/// random address), with no program interpreter and no shared library
/// to load, so a start maps one file and looks up no symbol.
#[cfg(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu"))]
#[test]
fn the_executables_are_static_pies() {
    for exe in [
        env!("CARGO_BIN_EXE_grundy"),
        env!("CARGO_BIN_EXE_grundy-parsers"),
        env!("CARGO_BIN_EXE_grundy-serve"),
    ] {
        let header = readelf("-h", exe);
        assert!(
            header.contains("DYN (Position-Independent Executable file)"),
            "{exe} is not position-independent:\n{header}"
        );
        let segments = readelf("-l", exe);
        assert!(segments.contains("LOAD"), "{exe}: {segments}");
        assert!(
            !segments.contains("INTERP"),
            "{exe} asks for a program interpreter:\n{segments}"
        );
        let dynamic = readelf("-d", exe);
        assert!(
            !dynamic.contains("(NEEDED)"),
            "{exe} loads shared libraries:\n{dynamic}"
        );
    }
}

/// This test program is linked as the executables are: a panic still
/// unwinds through the statically linked unwinder, runs destructors and
/// is caught.
#[test]
fn a_panic_still_unwinds_and_is_caught() {
    struct Flag<'a>(&'a std::cell::Cell<bool>);
    impl Drop for Flag<'_> {
        fn drop(&mut self) {
            self.0.set(true);
        }
    }
    let dropped = std::cell::Cell::new(false);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _flag = Flag(&dropped);
        std::panic::panic_any(41_u32 + 1);
    }));
    let payload = caught.expect_err("the panic was not caught");
    assert_eq!(payload.downcast_ref::<u32>(), Some(&42));
    assert!(dropped.get(), "unwinding skipped a destructor");
}
