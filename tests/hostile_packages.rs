//! Hostile problem packages: what a package downloaded from the internet,
//! or handed in by another user of the machine, can make the judge do
//! outside any sandbox. Links to files outside the package (a secret of
//! the judge's user, `/proc/self/environ`, `/proc/self/pagemap`),
//! `generators.yaml` paths that climb out, YAML nested 100,000 deep, and
//! FIFOs, sockets and devices where files belong.
//!
//! Each attack runs the real `grundy` in the hostile tests' cage
//! (tests/hostile/harness.rs), as root and (the `user_` twins) as
//! `nobody`, and checks that the secret is in no output and nowhere in the
//! cache, that the package and everything beside it are as they were, and
//! that the judge ended with an error naming the file (no hang, no crash).

#[path = "hostile/harness.rs"]
mod harness;

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use harness::{As, Project, Ran, Snapshot};

/// A small package `pkg` in `p`: its input validator accepts every input,
/// its submission prints the input back.
fn package(p: &Project) -> PathBuf {
    p.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Echo\nuuid: 5e1f-echo\nlimits: {time_limit: 2}\n",
    );
    p.write("pkg/data/sample/1.in", "3\n");
    p.write("pkg/data/sample/1.ans", "3\n");
    p.write("pkg/data/secret/1.in", "4\n");
    p.write("pkg/data/secret/1.ans", "4\n");
    p.write("pkg/submissions/accepted/echo.py", "print(input())\n");
    p.write(
        "pkg/input_validators/v/__main__.py",
        "import sys\nsys.stdin.read()\nsys.exit(42)\n",
    );
    p.path("pkg")
}

/// A validator that prints the file `name` of its own folder and rejects
/// the input: what it read shows in `verify`'s report.
fn leaking_validator(p: &Project, name: &str) {
    p.write(
        "pkg/input_validators/v/__main__.py",
        &format!(
            "import os, sys\nsys.stdin.read()\n\
             here = os.path.dirname(os.path.abspath(__file__))\n\
             print(open(os.path.join(here, {name:?}), errors='replace').read()[:200], file=sys.stderr)\n\
             sys.exit(43)\n"
        ),
    );
}

/// A secret of the judge's user outside the package (its `~/.ssh/id_rsa`):
/// readable by the judge alone.
fn secret(p: &Project) -> (PathBuf, String) {
    let text = format!("SECRET-{}", harness::nonce());
    let path = p.path("home/id_rsa");
    p.write("home/id_rsa", &text);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    (path, text)
}

fn verify(p: &Project) -> Ran {
    p.run(&["verify", "pkg"])
}

/// The secrets are in no output and in no file of the cache; nothing in
/// the cache is setuid or writable by others; everything outside the cache
/// is as `before`.
fn nothing_escaped(p: &Project, ran: &Ran, before: &Snapshot, secrets: &[&str]) {
    for s in secrets {
        assert!(
            !ran.text().contains(s),
            "`{s}` leaked into the output:\n{}",
            ran.text()
        );
    }
    for e in walkdir::WalkDir::new(p.path("cache"))
        .into_iter()
        .filter_map(Result::ok)
    {
        let Ok(m) = e.path().symlink_metadata() else {
            continue;
        };
        assert_eq!(
            m.permissions().mode() & 0o7022,
            0,
            "{} is setuid, setgid, sticky or writable by others",
            e.path().display()
        );
        if m.is_file() {
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes);
            for s in secrets {
                assert!(
                    !text.contains(s),
                    "`{s}` was copied into {}",
                    e.path().display()
                );
            }
        }
    }
    before.assert_unchanged(p, "the project after the attack");
}

/// The judge ended on its own (no signal) with `code`, naming `what`.
fn refused(ran: &Ran, code: i32, what: &str) {
    assert_eq!(ran.code, Some(code), "{}", ran.text());
    assert!(
        ran.text().contains(what),
        "`{what}` not named:\n{}",
        ran.text()
    );
}

fn link(target: impl AsRef<Path>, at: &Path) {
    symlink(target, at).expect("link");
}

fn nobody() -> Option<As> {
    harness::nobody("the attacks on an ordinary user's judge need a second user")
}

/// Two tests of one attack: the judge run by this test's own user (root in
/// CI), and the judge run by an ordinary user (the `user_…` twin), which
/// needs a second user on the machine (see `harness::nobody`).
macro_rules! twice {
    ($attack:ident: $me:ident, $user:ident) => {
        #[test]
        fn $me() {
            $attack(As::Me);
        }

        #[test]
        fn $user() {
            if let Some(who) = nobody() {
                $attack(who);
            }
        }
    };
}

// ---------------------------------------------------------------------------
// Links out of the package.

fn validator_file_linked_to_a_secret(who: As) {
    let p = Project::new(who);
    package(&p);
    let (path, text) = secret(&p);
    leaking_validator(&p, "loot.txt");
    link(&path, &p.path("pkg/input_validators/v/loot.txt"));
    p.hand_over();
    let before = Snapshot::take(&p);
    let ran = verify(&p);
    // `verify` fails the package, naming the link.
    refused(&ran, 1, "input_validators/v/loot.txt is a link to");
    nothing_escaped(&p, &ran, &before, &[&text]);
}

twice!(
    validator_file_linked_to_a_secret:
    a_validator_file_linked_to_a_secret_is_not_copied,
    user_a_validator_file_linked_to_a_secret_is_not_copied
);

fn header_linked_to_the_judges_environment(who: As) {
    let p = Project::new(who);
    package(&p);
    std::fs::remove_file(p.path("pkg/input_validators/v/__main__.py")).expect("rm");
    p.write(
        "pkg/input_validators/v/v.c",
        "#include \"env.h\"\nint main(void) { return 42; }\n",
    );
    link(
        "/proc/self/environ",
        &p.path("pkg/input_validators/v/env.h"),
    );
    p.hand_over();
    let before = Snapshot::take(&p);
    let ran = verify(&p);
    refused(
        &ran,
        1,
        "input_validators/v/env.h is a link to /proc/self/environ",
    );
    nothing_escaped(&p, &ran, &before, &["judge-secret-environment"]);
}

twice!(
    header_linked_to_the_judges_environment:
    a_header_linked_to_the_judges_environment_is_not_copied,
    user_a_header_linked_to_the_judges_environment_is_not_copied
);

fn validator_folder_linked_out(who: As) {
    let p = Project::new(who);
    package(&p);
    let (_, text) = secret(&p);
    leaking_validator(&p, "home/id_rsa");
    // The whole folder of secrets, through a relative link.
    link("../../../home", &p.path("pkg/input_validators/v/home"));
    p.hand_over();
    let before = Snapshot::take(&p);
    let ran = verify(&p);
    refused(
        &ran,
        1,
        "input_validators/v/home is a link to ../../../home",
    );
    nothing_escaped(&p, &ran, &before, &[&text]);
}

twice!(
    validator_folder_linked_out:
    a_validator_folder_linked_out_of_the_package_is_not_copied,
    user_a_validator_folder_linked_out_of_the_package_is_not_copied
);

fn generators_yaml_climbing_out(who: As) {
    for (yaml, named) in [
        (
            "data:\n  sample:\n    data:\n      '1': {copy: ../../home/loot}\n",
            "../../home/loot",
        ),
        (
            "solution: /submissions/accepted/../../../home/solve.py\ndata:\n  sample:\n    data:\n      '1': {in: \"3\\n\"}\n",
            "../../../home/solve.py",
        ),
        (
            "data:\n  secret:\n    data:\n      '1': ../../home/gen.py 5\n",
            "../../home/gen.py",
        ),
    ] {
        let p = Project::new(who);
        package(&p);
        std::fs::remove_dir_all(p.path("pkg/data")).expect("rm");
        let text = format!("SECRET-{}", harness::nonce());
        p.write("home/loot.in", &format!("{text}\n"));
        p.write("home/loot.ans", &format!("{text}\n"));
        p.write("home/solve.py", &format!("print({text:?})\n"));
        p.write("home/gen.py", &format!("print({text:?})\n"));
        p.write("pkg/generators/generators.yaml", yaml);
        p.hand_over();
        let before = Snapshot::take(&p);
        let ran = verify(&p);
        refused(&ran, 2, "generators.yaml");
        assert!(ran.text().contains(named), "{}", ran.text());
        assert!(
            ran.text().contains("leads outside the package"),
            "{}",
            ran.text()
        );
        nothing_escaped(&p, &ran, &before, &[&text]);
    }
}

twice!(
    generators_yaml_climbing_out:
    generators_yaml_paths_out_of_the_package_are_refused,
    user_generators_yaml_paths_out_of_the_package_are_refused
);

fn test_file_linked_out(who: As) {
    let p = Project::new(who);
    package(&p);
    let (path, text) = secret(&p);
    let input = p.path("pkg/data/secret/1.in");
    std::fs::remove_file(&input).expect("rm");
    link(&path, &input);
    p.hand_over();
    let before = Snapshot::take(&p);
    let sub = "pkg/submissions/accepted/echo.py";
    let ran = p.run(&["judge", "pkg", sub]);
    refused(&ran, 2, "data/secret/1.in is a link to");
    nothing_escaped(&p, &ran, &before, &[&text]);
}

twice!(
    test_file_linked_out:
    a_test_file_linked_to_a_secret_is_refused,
    user_a_test_file_linked_to_a_secret_is_refused
);

/// A root judge reads another user's package with that user's rights: a
/// file in it the owner cannot read (put there by root) is not copied.
#[test]
fn a_root_judge_reads_another_users_package_with_their_rights() {
    if !harness::is_root() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test needs root"
        );
        return;
    }
    let p = Project::new(As::Me);
    package(&p);
    leaking_validator(&p, "notes.txt");
    for e in walkdir::WalkDir::new(p.path("pkg"))
        .into_iter()
        .filter_map(Result::ok)
    {
        std::os::unix::fs::lchown(e.path(), Some(harness::NOBODY), Some(harness::NOBODY))
            .expect("chown");
    }
    let text = format!("ROOT-ONLY-{}", harness::nonce());
    let notes = p.write("pkg/input_validators/v/notes.txt", &text);
    std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let before = Snapshot::take(&p);
    let ran = verify(&p);
    refused(&ran, 1, "input_validators/v/notes.txt");
    nothing_escaped(&p, &ran, &before, &[&text]);
}

// ---------------------------------------------------------------------------
// Files that are not files.

fn pagemap(who: As) {
    let p = Project::new(who);
    package(&p);
    link(
        "/proc/self/pagemap",
        &p.path("pkg/input_validators/v/pm.txt"),
    );
    p.hand_over();
    let before = Snapshot::take(&p);
    let ran = verify(&p);
    // Refused before a byte is read: the judge is not killed by the cage.
    refused(
        &ran,
        1,
        "input_validators/v/pm.txt is a link to /proc/self/pagemap",
    );
    nothing_escaped(&p, &ran, &before, &[]);
}

twice!(
    pagemap:
    a_link_to_proc_self_pagemap_does_not_exhaust_the_judge,
    user_a_link_to_proc_self_pagemap_does_not_exhaust_the_judge
);

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

fn special_files(who: As) {
    // A FIFO as a test, a FIFO and a socket in the validator's folder.
    let p = Project::new(who);
    package(&p);
    let input = p.path("pkg/data/secret/1.in");
    std::fs::remove_file(&input).expect("rm");
    mkfifo(&input);
    p.hand_over();
    let before = Snapshot::take(&p);
    let sub = "pkg/submissions/accepted/echo.py";
    let ran = p.run(&["judge", "pkg", sub]);
    refused(&ran, 2, "data/secret/1.in");
    nothing_escaped(&p, &ran, &before, &[]);

    let p = Project::new(who);
    package(&p);
    mkfifo(&p.path("pkg/input_validators/v/fifo"));
    p.hand_over();
    let before = Snapshot::take(&p);
    let ran = verify(&p);
    refused(
        &ran,
        1,
        "input_validators/v/fifo: not a regular file or folder",
    );
    nothing_escaped(&p, &ran, &before, &[]);

    let p = Project::new(who);
    package(&p);
    let socket = std::os::unix::net::UnixListener::bind(p.path("pkg/input_validators/v/sock"))
        .expect("socket");
    p.hand_over();
    let ran = verify(&p);
    refused(
        &ran,
        1,
        "input_validators/v/sock: not a regular file or folder",
    );
    drop(socket);
}

twice!(
    special_files:
    fifos_and_sockets_in_a_package_are_refused_without_hanging,
    user_fifos_and_sockets_in_a_package_are_refused_without_hanging
);

/// A device node in a package (only root can make one).
#[test]
fn a_device_in_a_package_is_refused() {
    if !harness::is_root() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test needs root"
        );
        return;
    }
    let p = Project::new(As::Me);
    package(&p);
    let at = p.path("pkg/input_validators/v/zero");
    let c = std::ffi::CString::new(at.to_string_lossy().as_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path; /dev/zero's numbers.
    let made = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o644, libc::makedev(1, 5)) };
    assert_eq!(made, 0, "mknod");
    let ran = verify(&p);
    refused(
        &ran,
        1,
        "input_validators/v/zero: not a regular file or folder",
    );
}

// ---------------------------------------------------------------------------
// Deep YAML.

/// `x: [[[…]]]`, 100,000 levels.
fn deep_value() -> String {
    format!("x: {}{}\n", "[".repeat(100_000), "]".repeat(100_000))
}

fn deep_yaml(who: As) {
    let cases: [(&str, &str); 4] = [
        ("pkg/problem.yaml", "problem.yaml:5:"),
        ("pkg/submissions/submissions.yaml", "submissions.yaml:2:"),
        ("pkg/data/secret/test_group.yaml", "test_group.yaml:2:"),
        ("pkg/generators/generators.yaml", "generators.yaml:2:"),
    ];
    for (file, named) in cases {
        let p = Project::new(who);
        package(&p);
        if file.ends_with("generators.yaml") {
            std::fs::remove_dir_all(p.path("pkg/data")).expect("rm");
        }
        let head = std::fs::read_to_string(p.path(file)).unwrap_or_default();
        let head = if head.is_empty() {
            "# deep\n".to_string()
        } else {
            head
        };
        p.write(file, &format!("{head}{}", deep_value()));
        p.hand_over();
        let before = Snapshot::take(&p);
        let ran = verify(&p);
        refused(&ran, 2, named);
        assert!(ran.text().contains("nested deeper than"), "{}", ran.text());
        nothing_escaped(&p, &ran, &before, &[]);
    }
    // A contest and a languages file the user names.
    let p = Project::new(who);
    package(&p);
    p.write("contest.yaml", &format!("title: c\n{}", deep_value()));
    p.write(
        "langs.yaml",
        &format!("languages:\n  - id: x\n{}", deep_value()),
    );
    p.hand_over();
    let ran = p.run(&["--allow-weak-sandbox", "contest", "contest.yaml"]);
    refused(&ran, 2, "contest.yaml:2:");
    let ran = p.run(&["--languages", "langs.yaml", "verify", "pkg"]);
    refused(&ran, 2, "langs.yaml:3:");
}

twice!(
    deep_yaml:
    deeply_nested_yaml_is_refused_naming_the_file_and_line,
    user_deeply_nested_yaml_is_refused_naming_the_file_and_line
);

// ---------------------------------------------------------------------------
// What must keep working.

fn links_inside(who: As) {
    let p = Project::new(who);
    package(&p);
    p.write("pkg/shared/limit.txt", "SHARED-OK\n");
    p.write(
        "pkg/input_validators/v/__main__.py",
        "import os, sys\nsys.stdin.read()\n\
         here = os.path.dirname(os.path.abspath(__file__))\n\
         sys.exit(42 if open(os.path.join(here, 'limit.txt')).read() == 'SHARED-OK\\n' else 43)\n",
    );
    link(
        "../../shared/limit.txt",
        &p.path("pkg/input_validators/v/limit.txt"),
    );
    // A test shared between groups.
    link("../sample/1.in", &p.path("pkg/data/secret/2.in"));
    link("../sample/1.ans", &p.path("pkg/data/secret/2.ans"));
    p.hand_over();
    let before = Snapshot::take(&p);
    let ran = verify(&p);
    assert_eq!(ran.code, Some(0), "{}", ran.text());
    assert!(ran.text().contains("accept all 3 inputs"), "{}", ran.text());
    nothing_escaped(&p, &ran, &before, &[]);
}

twice!(
    links_inside:
    links_that_stay_inside_the_package_keep_working,
    user_links_that_stay_inside_the_package_keep_working
);
