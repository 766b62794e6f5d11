//! The cache's unit tests: keys, fills, eviction and trims.
use super::*;

#[test]
fn keys_are_length_prefixed() {
    assert_ne!(Key::of(&[b"ab", b"c"]), Key::of(&[b"a", b"bc"]));
    assert_eq!(Key::of(&[b"x"]), Key::of(&[b"x"]));
    assert_eq!(Key::of(&[b"x"]).0.len(), 64);
}

#[test]
fn fill_runs_once() {
    let t = tempfile::tempdir().expect("tempdir");
    let c = Cache::open(t.path()).expect("open");
    let k = Key::of(&[b"k"]);
    let mut calls = 0;
    for _ in 0..2 {
        let d = c
            .dir_or_fill::<io::Error>("bin", &k, |p| {
                calls += 1;
                fs::write(p.join("a"), b"1")
            })
            .expect("fill");
        assert_eq!(fs::read(d.join("a")).expect("read"), b"1");
    }
    assert_eq!(calls, 1);
}

#[test]
fn failed_fill_leaves_nothing() {
    let t = tempfile::tempdir().expect("tempdir");
    let c = Cache::open(t.path()).expect("open");
    let k = Key::of(&[b"k"]);
    let r = c.dir_or_fill("bin", &k, |_| Err(io::Error::other("no")));
    assert!(r.is_err());
    assert!(!c.path("bin", &k, "").exists());
}

/// An entry of `bytes` bytes last used `days_ago` days ago.
fn entry(c: &Cache, name: &[u8], bytes: usize, days_ago: u64) -> PathBuf {
    let p = c
        .put_file("answers", &Key::of(&[name]), ".ans", &vec![b'x'; bytes])
        .expect("put");
    let when = SystemTime::now() - Duration::from_secs(days_ago * 86_400);
    fs::File::open(&p)
        .and_then(|f| f.set_modified(when))
        .expect("set time");
    p
}

#[test]
fn least_recently_used_entries_go_first() {
    let t = tempfile::tempdir().expect("tempdir");
    let c = Cache::open(t.path()).expect("open");
    let oldest = entry(&c, b"a", 100, 3);
    let middle = entry(&c, b"b", 100, 2);
    let newest = entry(&c, b"c", 100, 1);
    // A hit makes the oldest the most recently used.
    assert!(
        c.existing_file("answers", &Key::of(&[b"a"]), ".ans")
            .is_some()
    );
    drop(c);
    let policy = Policy {
        max_size: Bytes(150),
        max_age: Duration::from_secs(30 * 86_400),
    };
    let (_c, trimmed) = Cache::open_trimmed(t.path(), &policy).expect("open");
    assert_eq!(
        trimmed,
        Some(Trimmed {
            entries: 2,
            bytes: 200
        })
    );
    assert!(oldest.exists());
    assert!(!middle.exists() && !newest.exists());
}

#[test]
fn a_use_within_minutes_of_the_last_is_not_recorded_again() {
    let t = tempfile::tempdir().expect("tempdir");
    let c = Cache::open(t.path()).expect("open");
    let p = c
        .put_file("answers", &Key::of(&[b"a"]), ".ans", b"x")
        .expect("put");
    let minute_ago = SystemTime::now() - Duration::from_secs(60);
    fs::File::open(&p)
        .and_then(|f| f.set_modified(minute_ago))
        .expect("set time");
    let hit = c.existing_file("answers", &Key::of(&[b"a"]), ".ans");
    assert_eq!(hit.as_deref(), Some(p.as_path()));
    let mtime = fs::metadata(&p).and_then(|m| m.modified()).expect("mtime");
    assert_eq!(mtime, minute_ago);
}

#[test]
fn a_trim_is_not_repeated_within_minutes_under_the_same_policy() {
    let t = tempfile::tempdir().expect("tempdir");
    let tight = Policy {
        max_size: Bytes(50),
        max_age: Duration::from_secs(30 * 86_400),
    };
    let (c, first) = Cache::open_trimmed(t.path(), &tight).expect("open");
    assert_eq!(first, Some(Trimmed::default()));
    let over = entry(&c, b"over the bound", 100, 1);
    drop(c);
    // Just trimmed under this policy: the entries are not looked at.
    let (c, again) = Cache::open_trimmed(t.path(), &tight).expect("open");
    assert_eq!(again, None);
    assert!(over.exists());
    drop(c);
    // Another policy applies at once.
    let tighter = Policy {
        max_size: Bytes(40),
        ..tight
    };
    let (c, changed) = Cache::open_trimmed(t.path(), &tighter).expect("open");
    assert_eq!(changed.map(|t| t.entries), Some(1));
    assert!(!over.exists());
    let over = entry(&c, b"over again", 100, 1);
    drop(c);
    // And the same policy again once the last trim is old enough.
    let stamp = t.path().join(TRIMMED);
    fs::File::open(&stamp)
        .and_then(|f| f.set_modified(SystemTime::now() - TRIM_EVERY * 2))
        .expect("set time");
    let (_c, later) = Cache::open_trimmed(t.path(), &tighter).expect("open");
    assert_eq!(later.map(|t| t.entries), Some(1));
    assert!(!over.exists());
}

#[test]
fn entries_unused_too_long_go() {
    let t = tempfile::tempdir().expect("tempdir");
    let c = Cache::open(t.path()).expect("open");
    let old = entry(&c, b"old", 10, 40);
    let recent = entry(&c, b"recent", 10, 1);
    drop(c);
    let (_c, trimmed) = Cache::open_trimmed(t.path(), &Policy::default()).expect("open");
    assert_eq!(trimmed.map(|t| t.entries), Some(1));
    assert!(!old.exists() && recent.exists());
}

#[test]
fn nothing_is_evicted_or_cleared_while_another_judge_has_the_cache() {
    let t = tempfile::tempdir().expect("tempdir");
    let other = Cache::open(t.path()).expect("open");
    let e = entry(&other, b"in use", 10, 400);
    let everything = Policy {
        max_size: Bytes(1),
        max_age: Duration::from_secs(86_400),
    };
    let (mine, trimmed) = Cache::open_trimmed(t.path(), &everything).expect("open");
    assert_eq!(trimmed, None);
    assert!(e.exists());
    assert!(matches!(Cache::clear(t.path()), Err(CacheError::Busy(_))));
    assert!(e.exists());
    drop((other, mine));
    let cleared = Cache::clear(t.path()).expect("clear");
    assert_eq!(cleared.entries, 1);
    assert!(!e.exists());
}

#[test]
fn a_trim_removes_work_left_by_dead_judges() {
    let t = tempfile::tempdir().expect("tempdir");
    let c = Cache::open(t.path()).expect("open");
    let left = c.scratch().expect("scratch").keep();
    drop(c);
    let (_c, _) = Cache::open_trimmed(t.path(), &Policy::default()).expect("open");
    assert!(!left.exists());
}

/// A cache folder others could read is narrowed to 0700 when opened; one
/// already private is left as it is (not even its change time is touched).
#[test]
fn the_cache_folder_is_made_private_and_only_when_it_is_not() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path().join("c");
    fs::create_dir(&root).expect("mkdir");
    fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).expect("chmod");
    drop(Cache::open(&root).expect("open"));
    let m = fs::metadata(&root).expect("meta");
    assert_eq!(m.mode() & 0o7777, trust::ROOT_MODE);
    let changed = (m.ctime(), m.ctime_nsec());
    std::thread::sleep(Duration::from_millis(20));
    drop(Cache::open(&root).expect("open again"));
    let again = fs::metadata(&root).expect("meta");
    assert_eq!(again.mode() & 0o7777, trust::ROOT_MODE);
    assert_eq!(
        (again.ctime(), again.ctime_nsec()),
        changed,
        "an open rewrote the folder's inode"
    );
}

/// A folder entry's use is recorded when its last record is older than
/// [`TOUCH_AFTER`], and not rewritten at every use within it (a write to
/// the inode at every judging's start).
#[test]
fn a_folder_entry_s_use_is_recorded_only_once_it_is_stale() {
    let t = tempfile::tempdir().expect("tempdir");
    let c = Cache::open(t.path()).expect("open");
    let k = Key::of(&[b"dir"]);
    let use_it = || {
        c.dir_or_fill::<io::Error>("bin", &k, |p| fs::write(p.join("a"), b"1"))
            .expect("fill")
    };
    let d = use_it();
    let set = |when: SystemTime| {
        fs::File::open(&d)
            .and_then(|f| f.set_modified(when))
            .expect("set time")
    };
    let modified = || fs::metadata(&d).and_then(|m| m.modified()).expect("mtime");
    let recent = SystemTime::now() - TOUCH_AFTER / 2;
    set(recent);
    use_it();
    assert_eq!(modified(), recent, "a recent use was recorded again");
    let old = SystemTime::now() - TOUCH_AFTER * 2;
    set(old);
    use_it();
    assert!(modified() > recent, "a stale entry's use was not recorded");
}
