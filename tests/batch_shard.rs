//! `grade --shard K/N` and `grundy merge`: N shards merged give the reports
//! of one unsharded run, and a missing shard is refused by name.

mod batch_support;

use batch_support::*;

#[test]
fn three_shards_merged_equal_one_run() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    make_class(&class, 20);
    let c = class.to_string_lossy().into_owned();
    let path = |name: &str| t.path().join(name).to_string_lossy().into_owned();

    let whole = run(&["grade", &c, "--out", &path("whole"), "--jobs", "2"]);
    assert_eq!(whole.status.code(), Some(1), "{}", text(&whole.stderr));

    let mut judged = 0;
    for k in 0..3 {
        let shard = format!("{k}/3");
        let out = run(&[
            "grade",
            &c,
            "--out",
            &path(&format!("s{k}")),
            "--shard",
            &shard,
            "--jobs",
            "2",
        ]);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains(&format!("shard {shard}")),
            "{}",
            text(&out.stdout)
        );
        assert!(
            !t.path().join(format!("s{k}/grades.csv")).exists(),
            "a shard writes no reports"
        );
        let lines = journal_lines(&t.path().join(format!("s{k}")));
        assert!(
            lines > 0,
            "shard {shard} judged nothing: the hash should spread 61 items"
        );
        judged += lines;
    }
    assert_eq!(
        judged,
        20 * 3 + 1,
        "each submission judged by exactly one shard"
    );

    let missing = run(&["merge", &path("s0"), &path("s2"), "--out", &path("partial")]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        text(&missing.stderr).contains("shard 1/3 missing"),
        "{}",
        text(&missing.stderr)
    );

    let merged = run(&[
        "merge",
        &path("s2"),
        &path("s0"),
        &path("s1"),
        "--out",
        &path("merged"),
    ]);
    assert_eq!(merged.status.code(), Some(1), "{}", text(&merged.stderr));
    assert_same_reports(&t.path().join("whole"), &t.path().join("merged"));

    // A merged folder is a finished run: resuming it judges nothing.
    let again = run(&["grade", &c, "--out", &path("merged"), "--resume"]);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stderr));
    assert!(
        text(&again.stderr).contains("resuming: 61 of 61"),
        "{}",
        text(&again.stderr)
    );
    assert_same_reports(&t.path().join("whole"), &t.path().join("merged"));
}
