//! The catalog's problems written from a `game:` description alone (no
//! reference, no Rust): `verify` is green on them, so their accepted
//! programs (in three languages or more) agree with the description's own
//! answers and every known-wrong program is still caught by the derived
//! and written tests.

mod common;

use std::path::Path;

use common::{grundy_in, stderr, stdout};

const DESCRIBED: [&str; 5] = [
    "subtraction-game",
    "kayles",
    "dawsons-kayles",
    "moore-nim",
    "kayles-play",
];

#[test]
fn the_problems_written_from_a_description_verify_green() {
    let catalog = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut args = vec!["verify"];
    args.extend(DESCRIBED);
    args.push("--json");
    let out = grundy_in(&catalog, &args);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
    assert_eq!(out.status.code(), Some(0), "{v:#}\n{}", stderr(&out));
    let problems = v["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), DESCRIBED.len(), "{v:#}");
    for t in problems {
        let id = t["id"].as_str().unwrap_or_default();
        assert!(DESCRIBED.contains(&id), "{t:#}");
        assert_eq!(t["passed"], true, "{t:#}");
        assert_eq!(t["oracle"]["status"], "ok", "{t:#}");
        // No reference: the description answers every test.
        assert_eq!(t["reference"]["status"], "skipped", "{t:#}");
        let known = t["known"].as_array().expect("known submissions");
        let accepted = known.iter().filter(|k| k["expected"] == "AC").count();
        let wrong = known.iter().filter(|k| k["expected"] == "WA").count();
        assert!(accepted >= 3, "{id}: {accepted} accepted programs\n{t:#}");
        assert!(wrong >= 5, "{id}: {wrong} known-wrong programs\n{t:#}");
        for k in known {
            assert_eq!(k["ok"], true, "{id}: {k:#}");
            assert!(k["skipped"].is_null(), "{id}: {k:#}");
        }
    }
}
