//! `grundy verify`: passes on the catalog, and fails with a clear line when
//! a reference is broken.

mod common;

use std::path::Path;

use common::{Project, stdout};

fn repo(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A project holding a copy of the catalog's `nim` problem.
fn nim_copy() -> Project {
    let p = Project::empty();
    for entry in walkdir::WalkDir::new(repo("problems/nim")) {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(repo("problems")).expect("inside");
        let dest = p.path("problems").join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
    p.write("reference/nim.rs", NIM_REFERENCE);
    p
}

const NIM_REFERENCE: &str = include_str!("../reference/nim.rs");

#[test]
fn the_whole_catalog_verifies() {
    let out = common::grundy_in(&repo("problems"), &["verify", "--jobs", "2"]);
    let text = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}\n{}",
        common::stderr(&out)
    );
    assert!(text.contains("verify: everything as expected"));
    for id in ["nim", "nim-yes-no", "nim-winning-move"] {
        assert!(
            text.lines().any(|l| l.starts_with(id)),
            "{id} missing:\n{text}"
        );
    }
}

#[test]
fn a_reference_broken_on_one_small_position_fails_the_oracle_check() {
    let p = nim_copy();
    // Correct everywhere except the single position "two piles of 2".
    let broken = NIM_REFERENCE.replace(
        "let answer = if nim_sum != 0",
        "let answer = if input.split_ascii_whitespace().collect::<Vec<_>>() == [\"2\", \"2\", \"2\"] { \"Alice\" } else if nim_sum != 0",
    );
    assert_ne!(
        broken, NIM_REFERENCE,
        "the reference changed shape; update this test"
    );
    p.write("reference/nim.rs", &broken);
    let out = p.grundy(&["verify", "nim"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("reference disagrees with the oracle on input `2 2 2`: token 1: expected `Bob`, got `Alice`"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("verify: FAILED"));
}

#[test]
fn a_reference_that_is_plainly_wrong_fails_on_the_samples() {
    let p = nim_copy();
    p.write("reference/nim.rs", "fn main() { println!(\"Alice\"); }\n");
    let out = p.grundy(&["verify", "nim"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("is WA on sample-1"), "{text}");
}

#[test]
fn a_missing_reference_is_a_failure_not_a_skip() {
    let p = nim_copy();
    std::fs::remove_file(p.path("reference/nim.rs")).expect("rm");
    // Without its `game:` section nothing answers nim's generated tests.
    let spec = p.path("problems/nim/problem.yaml");
    let yaml = std::fs::read_to_string(&spec).expect("read spec");
    let start = yaml.find("\ngame:\n").expect("nim describes its game");
    let end = yaml[start + 1..]
        .find("\nsamples:")
        .expect("samples follow")
        + start
        + 1;
    std::fs::write(&spec, format!("{}{}", &yaml[..start], &yaml[end..])).expect("write spec");
    let out = p.grundy(&["verify", "nim"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    // The first test with no answer is named, and why it has none.
    assert!(
        text.contains("no reference solution (expected reference/nim.rs, or `reference:` in the spec): test small-01: no answer:"),
        "{text}"
    );
}

#[test]
fn a_described_game_needs_no_reference() {
    let p = nim_copy();
    std::fs::remove_file(p.path("reference/nim.rs")).expect("rm");
    let out = p.grundy(&["verify", "nim", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let t = &v["problems"][0];
    assert_eq!(out.status.code(), Some(0), "{t:#}");
    assert_eq!(t["reference"]["status"], "skipped", "{t:#}");
    let oracle = t["oracle"]["detail"].as_str().unwrap_or_default();
    assert!(
        oracle.contains(
            "the description's answers agree with the search; answers proven for heaps of any size"
        ),
        "{oracle}"
    );
}

#[test]
fn a_known_submission_with_the_wrong_verdict_is_named() {
    let p = nim_copy();
    // Claims to be wrong, but is a correct solution.
    p.write(
        "problems/nim/submissions/wrong_answer/actually_right.c",
        common::TOY_C,
    );
    let out = p.grundy(&["verify", "nim"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.lines().any(|l| l.contains("BAD")
            && l.contains("actually_right.c")
            && l.contains("expected WA  got AC")),
        "{text}"
    );
    // The problem's row is under the header: counts end where their title
    // does, words start where theirs do.
    let header = text.lines().find(|l| l.starts_with("problem "));
    let row = text.lines().find(|l| l.starts_with("nim "));
    let (Some(header), Some(row)) = (header, row) else {
        panic!("no header or no row for nim:\n{text}");
    };
    let (h, r) = (words(header), words(row));
    assert_eq!(h.len(), r.len(), "{header}\n{row}");
    assert_eq!(h[1].1, r[1].1, "tests, right-aligned:\n{header}\n{row}");
    for i in [0, 2, 3, 4, 5] {
        assert_eq!(h[i].0, r[i].0, "column {i}:\n{header}\n{row}");
    }
    assert!(
        text.lines().all(|l| l == l.trim_end()),
        "no line ends in spaces:\n{text:?}"
    );
}

/// Where each word of a line starts and ends (byte offsets).
fn words(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (c == ' ', start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// A handmade test file that breaks nim's bounds (a pile above 10000) is
/// named with its file and line, and fails verify.
#[test]
fn a_handmade_test_file_outside_the_input_format_fails_naming_file_and_line() {
    let p = nim_copy();
    let spec = p.path("problems/nim/problem.yaml");
    let text = std::fs::read_to_string(&spec).expect("read spec");
    let edited = text.replacen(
        "      - input: \"1\\n1\\n\"\n",
        "      - file: handmade/huge.in\n      - input: \"1\\n1\\n\"\n",
        1,
    );
    assert_ne!(edited, text, "the nim spec changed shape; update this test");
    std::fs::write(&spec, edited).expect("write spec");
    p.write("problems/nim/handmade/huge.in", "2\n99999999999 5\n");
    let out = p.grundy(&["verify", "nim"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.lines().any(|l| l.contains("handmade/huge.in")
            && l.contains(
                "breaks the input format of nim: line 2: a_i = 99999999999 is outside 1..=10000"
            )),
        "{text}"
    );
}

/// An inline test with a pile of 0 is named by its spec entry and line.
#[test]
fn an_inline_test_outside_the_input_format_fails_naming_its_entry() {
    let p = nim_copy();
    let spec = p.path("problems/nim/problem.yaml");
    let text = std::fs::read_to_string(&spec).expect("read spec");
    let edited = text.replacen(
        "      - input: \"1\\n1\\n\"\n",
        "      - input: \"1\\n0\\n\"\n",
        1,
    );
    assert_ne!(edited, text, "the nim spec changed shape; update this test");
    std::fs::write(&spec, edited).expect("write spec");
    let out = p.grundy(&["verify", "nim"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("group `edge`, test entry 1")
                && l.contains("line 2: a_i = 0 is outside 1..=10000")),
        "{text}"
    );
}
