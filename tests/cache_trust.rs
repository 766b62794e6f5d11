//! The compile cache is the judge's alone. A cache another user can
//! change decides verdicts (swap a compiled program) and, when the judge
//! is root, what root removes (link `tmp` to a victim's folder and wait
//! for a trim); a setuid program a package stages there becomes root's.
//!
//! Each test uses a real second user (`nobody`, made with setpriv) and a
//! cache under /tmp, runs the real `grundy` in the hostile tests' cage
//! (tests/hostile/harness.rs), and checks that nothing was removed,
//! changed or run that should not have been.

#[path = "hostile/harness.rs"]
mod harness;

use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;

use harness::{As, NOBODY, Project, Ran};

fn root_only(what: &str) -> bool {
    if harness::is_root() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but {what} needs root (a second user)"
    );
    eprintln!("not root: {what} skipped");
    false
}

/// A folder under /tmp that anyone may create in, as /tmp itself (sticky,
/// mode 1777): where a shared cache would be made.
fn shared_tmp() -> tempfile::TempDir {
    let t = tempfile::Builder::new()
        .prefix("grundy-cache-trust-")
        .tempdir_in("/tmp")
        .expect("tempdir");
    std::fs::set_permissions(t.path(), std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    t
}

/// Runs `argv` as `nobody` (setpriv), failing the test if it fails.
fn as_nobody(argv: &[&str]) {
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .args(argv)
        .output()
        .expect("setpriv");
    assert!(
        out.status.success(),
        "{argv:?} as nobody: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What `argv` prints when run as `nobody` (it may fail).
fn output_as_nobody(argv: &[&str]) -> String {
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .args(argv)
        .output()
        .expect("setpriv");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A victim's folder with files in it, owned by `uid`.
fn victim(under: &Path, uid: u32) -> PathBuf {
    let v = under.join("victim");
    std::fs::create_dir_all(v.join("deep")).expect("mkdir");
    std::fs::write(v.join("precious.txt"), "precious").expect("write");
    std::fs::write(v.join("deep/more.txt"), "more").expect("write");
    for e in walkdir::WalkDir::new(&v).into_iter().filter_map(Result::ok) {
        std::os::unix::fs::lchown(e.path(), Some(uid), Some(uid)).expect("chown");
    }
    v
}

fn victim_intact(v: &Path) {
    assert_eq!(
        std::fs::read_to_string(v.join("precious.txt"))
            .ok()
            .as_deref(),
        Some("precious"),
        "the victim's folder was emptied"
    );
    assert_eq!(
        std::fs::read_to_string(v.join("deep/more.txt"))
            .ok()
            .as_deref(),
        Some("more"),
        "the victim's folder was emptied"
    );
}

/// The project's problem `p` (prints the first line of its input back)
/// and a submission that is right, and one that is wrong.
fn judged_project(who: As) -> Project {
    let p = Project::new(who);
    p.problem("p", "7\n", "");
    p.write(
        "subs/right.c",
        "#include <stdio.h>\nint main(void){char b[64];if(fgets(b,64,stdin))fputs(b,stdout);return 0;}\n",
    );
    p.write(
        "subs/wrong.c",
        "#include <stdio.h>\nint main(void){puts(\"0\");return 0;}\n",
    );
    p
}

/// `grundy --cache CACHE judge p subs/NAME --json` in the project, caged.
fn judge_with(p: &Project, cache: &Path, name: &str) -> Ran {
    let mut cmd = Command::new(p.path("grundy"));
    cmd.arg("--problems")
        .arg(p.path("problems"))
        .arg("--cache")
        .arg(cache)
        .args(["judge", "p"])
        .arg(p.path(&format!("subs/{name}")))
        .arg("--json");
    p.run_command(cmd)
}

fn verdict_of(ran: &Ran) -> String {
    serde_json::from_str::<serde_json::Value>(&ran.stdout)
        .ok()
        .and_then(|v| v["results"][0]["verdict"].as_str().map(str::to_string))
        .unwrap_or_default()
}

fn refused_naming(ran: &Ran, folder: &Path) {
    assert_eq!(ran.code, Some(2), "{}", ran.text());
    assert!(
        ran.stderr.contains(&folder.display().to_string()),
        "{} not named:\n{}",
        folder.display(),
        ran.text()
    );
}

// ---------------------------------------------------------------------------
// A setuid program of a package.

/// A package whose validator folder holds a link (so it is copied) and a
/// setuid program that takes uid 0 and prints `id`.
fn setuid_package(p: &Project) -> PathBuf {
    p.write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Echo\nuuid: 5e1f-suid\nlimits: {time_limit: 2}\n",
    );
    p.write("pkg/data/sample/1.in", "3\n");
    p.write("pkg/data/sample/1.ans", "3\n");
    p.write("pkg/submissions/accepted/echo.py", "print(input())\n");
    p.write(
        "pkg/input_validators/v/__main__.py",
        "import sys\nsys.stdin.read()\nsys.exit(42)\n",
    );
    symlink(
        "../../problem.yaml",
        p.path("pkg/input_validators/v/link.txt"),
    )
    .expect("link");
    let src = p.write(
        "helper.c",
        "#include <unistd.h>\nint main(void){setgid(0);setuid(0);execl(\"/usr/bin/id\",\"id\",(char*)0);return 1;}\n",
    );
    let helper = p.path("pkg/input_validators/v/helper");
    let cc = Command::new("cc")
        .arg("-o")
        .arg(&helper)
        .arg(&src)
        .status()
        .expect("cc");
    assert!(cc.success(), "cc");
    p.path("pkg")
}

/// Root verifies a package another user owns, with a cache under /tmp.
fn setuid_never_in_the_cache() {
    let shared = shared_tmp();
    let cache = shared.path().join("grundy-cache");
    let p = Project::new(As::Me);
    setuid_package(&p);
    for e in walkdir::WalkDir::new(p.path("pkg"))
        .into_iter()
        .filter_map(Result::ok)
    {
        std::os::unix::fs::lchown(e.path(), Some(NOBODY), Some(NOBODY)).expect("chown");
    }
    // After the change of owner, which takes the bit away.
    let helper = p.path("pkg/input_validators/v/helper");
    std::fs::set_permissions(&helper, std::fs::Permissions::from_mode(0o4755)).expect("chmod");
    let ran = p.run_command({
        let mut c = Command::new(p.path("grundy"));
        c.arg("--cache").arg(&cache).args(["verify", "pkg"]);
        c
    });
    assert_eq!(ran.code, Some(0), "{}", ran.text());
    let staged = closed_and_clean(&cache);
    // Another user reaches nothing in it, and no copy gives root.
    for h in &staged {
        let said = output_as_nobody(&[&h.to_string_lossy()]);
        assert!(!said.contains("uid=0"), "{}: {said}", h.display());
    }
}

/// Checks that nothing in `cache` is setuid, setgid or sticky, or writable
/// by others, and that the folder itself is closed to other users; the
/// staged copies of the helper.
fn closed_and_clean(cache: &Path) -> Vec<PathBuf> {
    let mut staged = Vec::new();
    for e in walkdir::WalkDir::new(cache)
        .into_iter()
        .filter_map(Result::ok)
    {
        let m = e.path().symlink_metadata().expect("meta");
        assert_eq!(
            m.mode() & 0o7022,
            0,
            "{} has mode {:o}",
            e.path().display(),
            m.mode() & 0o7777
        );
        if e.file_name() == "helper" {
            staged.push(e.path().to_path_buf());
        }
    }
    assert!(!staged.is_empty(), "the validator folder was not staged");
    let mode = cache.metadata().expect("cache").mode() & 0o777;
    assert_eq!(mode, 0o700, "the cache folder is {mode:o}");
    staged
}

#[test]
fn a_setuid_program_of_a_package_is_never_setuid_in_the_cache() {
    if root_only("a package owned by another user") {
        setuid_never_in_the_cache();
    }
}

#[test]
fn user_a_setuid_program_of_a_package_is_never_setuid_in_the_cache() {
    if let Some(who) = harness::nobody("the judge as an ordinary user") {
        // The judge is nobody, the package its own.
        let p = Project::new(who);
        setuid_package(&p);
        p.hand_over();
        let helper = p.path("pkg/input_validators/v/helper");
        std::fs::set_permissions(&helper, std::fs::Permissions::from_mode(0o6755)).expect("chmod");
        let ran = p.run_command({
            let mut c = p.grundy();
            c.args(["verify", "pkg"]);
            c
        });
        assert_eq!(ran.code, Some(0), "{}", ran.text());
        closed_and_clean(&p.path("cache"));
    }
}

// ---------------------------------------------------------------------------
// A cache folder someone else made.

/// Another user made the cache folder and linked its `tmp` to a victim's
/// folder: a trim through the link would empty it.
fn cache_someone_else_made(judge: As) {
    let shared = shared_tmp();
    let attacker = if judge == As::Me { NOBODY } else { 0 };
    let victim_owner = if judge == As::Me { 0 } else { NOBODY };
    let v = victim(shared.path(), victim_owner);
    let cache = shared.path().join("grundy-cache");
    std::fs::create_dir(&cache).expect("mkdir");
    symlink(&v, cache.join("tmp")).expect("link");
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    for e in [&cache, &cache.join("tmp")] {
        std::os::unix::fs::lchown(e, Some(attacker), Some(attacker)).expect("chown");
    }
    let p = judged_project(judge);
    p.hand_over();
    let ran = judge_with(&p, &cache, "right.c");
    refused_naming(&ran, &cache);
    assert!(ran.stderr.contains("mkdir -m 700"), "{}", ran.text());
    victim_intact(&v);
    // Nothing of the judge's was put in it either.
    let names: Vec<_> = std::fs::read_dir(&cache)
        .expect("list")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("tmp")], "{names:?}");
}

#[test]
fn a_cache_folder_another_user_made_is_refused() {
    if root_only("a cache made by another user") {
        cache_someone_else_made(As::Me);
    }
}

#[test]
fn user_a_cache_folder_another_user_made_is_refused() {
    if let Some(who) = harness::nobody("the judge as an ordinary user") {
        cache_someone_else_made(who);
    }
}

/// Root judged a wrong submission in a cache another user can change
/// (it made the folder); that user then puts a right program in place of
/// the compiled wrong one. Judged again, the wrong submission is never
/// `AC`: the cache is refused.
#[test]
fn a_program_another_user_replaced_in_the_cache_is_never_run() {
    if !root_only("a cache changed by another user") {
        return;
    }
    let shared = shared_tmp();
    let cache = shared.path().join("grundy-cache");
    let p = judged_project(As::Me);
    // First, in a cache of root's own: the wrong program is `WA`, and
    // its compiled form is in `bin`.
    let ran = judge_with(&p, &cache, "wrong.c");
    assert_eq!(verdict_of(&ran), "WA", "{}", ran.text());
    // The folder becomes someone else's (it made it, or got it).
    for e in walkdir::WalkDir::new(&cache)
        .into_iter()
        .filter_map(Result::ok)
    {
        std::os::unix::fs::lchown(e.path(), Some(NOBODY), Some(NOBODY)).expect("chown");
    }
    let right = shared.path().join("right");
    let cc = Command::new("cc")
        .arg("-o")
        .arg(&right)
        .arg(p.path("subs/right.c"))
        .status()
        .expect("cc");
    assert!(cc.success());
    std::fs::set_permissions(&right, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut replaced = 0;
    for e in walkdir::WalkDir::new(cache.join("bin"))
        .into_iter()
        .filter_map(Result::ok)
    {
        if e.file_name() == "main" {
            let main = e.path().to_string_lossy().into_owned();
            as_nobody(&["cp", &right.to_string_lossy(), &main]);
            replaced += 1;
        }
    }
    assert!(replaced > 0, "no compiled program in the cache");
    let ran = judge_with(&p, &cache, "wrong.c");
    assert_ne!(verdict_of(&ran), "AC", "{}", ran.text());
    refused_naming(&ran, &cache);
}

// ---------------------------------------------------------------------------
// Links inside the judge's own cache.

fn links_inside_never_followed(who: As) {
    for kind in ["tmp", "answers", "bin"] {
        let shared = shared_tmp();
        let owner = if who == As::Me { 0 } else { NOBODY };
        let v = victim(shared.path(), owner);
        let p = judged_project(who);
        let cache = p.path("cache");
        // A first judging fills the cache.
        let ran = p.run(&["judge", "p", "subs/right.c", "--json"]);
        assert_eq!(verdict_of(&ran), "AC", "{}", ran.text());
        // The kind folder replaced by a link to the victim's folder; the
        // next judging trims (the stamp of the last trim is gone).
        let at = cache.join(kind);
        std::fs::rename(&at, cache.join(format!("{kind}.old"))).expect("rename");
        symlink(&v, &at).expect("link");
        let _ = std::fs::remove_file(cache.join("trimmed"));
        p.hand_over();
        let ran = p.run_command({
            let mut c = p.grundy();
            c.args(["judge", "p", "subs/right.c", "--json"]);
            c
        });
        refused_naming(&ran, &at);
        assert!(ran.stderr.contains("symbolic link"), "{}", ran.text());
        victim_intact(&v);
    }
}

#[test]
fn a_link_inside_the_cache_is_never_followed() {
    if root_only("a victim's folder of another user") {
        links_inside_never_followed(As::Me);
    }
}

#[test]
fn user_a_link_inside_the_cache_is_never_followed() {
    if let Some(who) = harness::nobody("the judge as an ordinary user") {
        links_inside_never_followed(who);
    }
}

/// A cache behind two folders others cannot pass, as root's default
/// `~/.cache/grundy` is when `~` and `~/.cache` are both 0700: runs (as
/// root, another uid) still reach its `tmp` to compile and its `bin` to
/// run, through the mount view.
#[test]
fn a_cache_behind_two_closed_folders_serves_runs() {
    let p = judged_project(As::Me);
    let base = tempfile::tempdir().expect("tempdir");
    let inner = base.path().join("home/.cache");
    std::fs::create_dir_all(&inner).expect("mkdir");
    for d in [base.path().join("home"), inner.clone()] {
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    }
    let ran = judge_with(&p, &inner.join("grundy"), "right.c");
    assert_eq!(verdict_of(&ran), "AC", "{}", ran.text());
    let ran = judge_with(&p, &inner.join("grundy"), "wrong.c");
    assert_eq!(verdict_of(&ran), "WA", "{}", ran.text());
}
