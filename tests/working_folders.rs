//! Where a judge makes its working folder: in its user's folder of
//! `$TMPDIR` (`grundy-<uid>`, mode 0700), where the sweep of dead judges'
//! folders reads nothing else; and never in a `grundy-<uid>` that is not
//! safely the user's (a link, another user's, open to others), where it
//! falls back to `$TMPDIR` itself. Each judge runs the real binary in a
//! cage of its own (tests/hostile/harness.rs) with a private `$TMPDIR`.

#[path = "hostile/harness.rs"]
mod harness;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, SystemTime};

use harness::{As, Cage, Project, SERIAL};

/// A correct solution of the harness's problem (it prints its input back).
const ECHO_C: &str = "#include <stdio.h>\nint main(void){char s[256];if(fgets(s,sizeof s,stdin))fputs(s,stdout);return 0;}\n";

/// An old time, set on a folder so that any entry made in it shows.
const LONG_AGO: Duration = Duration::from_secs(1_000_000_000);

fn uid() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

/// A project with problem `p` and its private `$TMPDIR` (`tmp`).
fn project() -> Project {
    let p = Project::new(As::Me);
    p.problem("p", "Alice\n", "limits: {time: 2s, memory: 128MiB}");
    fs::create_dir_all(p.path("tmp")).expect("tmp");
    p
}

/// The user's folder in the project's `$TMPDIR`.
fn own(p: &Project) -> PathBuf {
    p.path(&format!("tmp/grundy-{}", uid()))
}

/// `grundy judge p echo.c --json` in a cage with the project's `$TMPDIR`:
/// the verdict, and both streams for messages.
fn judge(p: &Project) -> (String, String) {
    let sub = p.write("subs/echo.c", ECHO_C);
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut cmd = p.grundy();
    cmd.arg("judge")
        .arg("p")
        .arg(&sub)
        .arg("--json")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", p.path("home"))
        .env("TMPDIR", p.path("tmp"))
        .current_dir(p.dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let cage = Cage::new(As::Me).expect("cage");
    cage.apply(&mut cmd);
    // A watchdog, not a timing: only a hung judge reaches it.
    let out = harness::output_within(cmd.spawn().expect("spawn grundy"), Duration::from_secs(300));
    drop(cage);
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("no JSON ({e}): {text}"));
    let verdict = json["results"][0]["verdict"]
        .as_str()
        .unwrap_or("?")
        .to_string();
    (verdict, text)
}

/// The names in folder `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

/// Sets folder `dir`'s modification time long ago.
fn age(dir: &Path) {
    fs::File::open(dir)
        .and_then(|f| f.set_modified(SystemTime::UNIX_EPOCH + LONG_AGO))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
}

/// Whether nothing was made or removed in folder `dir` since [`age`].
fn untouched(dir: &Path) -> bool {
    fs::metadata(dir)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t == SystemTime::UNIX_EPOCH + LONG_AGO)
}

#[test]
fn working_folders_live_in_the_users_private_folder_and_a_dead_judges_goes() {
    let p = project();
    // Compiled and answered first: a compile keeps its logs in `$TMPDIR`.
    let (verdict, text) = judge(&p);
    assert_eq!(verdict, "AC", "{text}");
    // A judge killed in its user's folder: its lock is free, whatever
    // pid and pid namespace its name gives.
    let dead = own(&p).join("grundy-1-1-killed");
    fs::create_dir_all(dead.join("run-x/work")).expect("mkdir");
    fs::write(dead.join("run-x/stdout"), "left\n").expect("write");
    fs::write(dead.join(".judge.lock"), "").expect("lock");
    // A folder of another program in `$TMPDIR` itself, never read.
    fs::create_dir(p.path("tmp/grundy-1-1-other")).expect("mkdir");
    age(&p.path("tmp"));
    let (verdict, text) = judge(&p);
    assert_eq!(verdict, "AC", "{text}");
    assert!(!dead.exists(), "a dead judge's working folder stayed");
    assert_eq!(
        names(&own(&p)),
        Vec::<String>::new(),
        "left in the user's folder"
    );
    let mut expected = [format!("grundy-{}", uid()), "grundy-1-1-other".to_string()];
    expected.sort();
    assert_eq!(names(&p.path("tmp")), expected);
    assert!(untouched(&p.path("tmp")), "written into $TMPDIR itself");
}

#[test]
fn the_users_folder_is_made_private() {
    let p = project();
    let (verdict, text) = judge(&p);
    assert_eq!(verdict, "AC", "{text}");
    let meta = fs::symlink_metadata(own(&p)).expect("the user's folder");
    assert!(meta.is_dir());
    assert_eq!((meta.uid(), meta.mode() & 0o777), (uid(), 0o700));
    assert_eq!(names(&own(&p)), Vec::<String>::new(), "left in it");
}

/// Judging works with `grundy-<uid>` made hostile by `plant` (given its
/// path and a private folder elsewhere), and nothing is made in it or
/// (through a link) in the folder elsewhere; the working folder, made in
/// `$TMPDIR` itself, is gone after.
fn a_hostile_users_folder_is_never_written_into(plant: impl FnOnce(&Path, &Path)) {
    let p = project();
    let elsewhere = p.path("elsewhere");
    fs::create_dir(&elsewhere).expect("mkdir");
    fs::set_permissions(&elsewhere, fs::Permissions::from_mode(0o700)).expect("chmod");
    plant(&own(&p), &elsewhere);
    for dir in [&own(&p), &elsewhere] {
        age(dir);
    }
    let (verdict, text) = judge(&p);
    assert_eq!(verdict, "AC", "{text}");
    assert!(untouched(&own(&p)), "written into the hostile folder");
    assert!(untouched(&elsewhere), "written through the link");
    assert_eq!(names(&elsewhere), Vec::<String>::new());
    assert_eq!(names(&p.path("tmp")), [format!("grundy-{}", uid())]);
}

#[test]
fn a_users_folder_made_a_link_is_not_used() {
    a_hostile_users_folder_is_never_written_into(|own, elsewhere| {
        std::os::unix::fs::symlink(elsewhere, own).expect("link")
    });
}

#[test]
fn a_users_folder_open_to_others_is_not_used() {
    a_hostile_users_folder_is_never_written_into(|own, _| {
        fs::create_dir(own).expect("mkdir");
        fs::set_permissions(own, fs::Permissions::from_mode(0o777)).expect("chmod");
    });
}

#[test]
fn a_users_folder_of_another_user_is_not_used() {
    if harness::nobody("a folder of another user needs root to make").is_none() {
        return;
    }
    a_hostile_users_folder_is_never_written_into(|own, _| {
        fs::create_dir(own).expect("mkdir");
        fs::set_permissions(own, fs::Permissions::from_mode(0o700)).expect("chmod");
        std::os::unix::fs::lchown(own, Some(harness::NOBODY), Some(harness::NOBODY))
            .expect("chown");
    });
}
