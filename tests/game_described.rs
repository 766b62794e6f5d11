//! Games described in YAML (`game:`), through the command line: the values
//! `grundy game` prints for Kayles and Dawson's Kayles against the
//! published sequences; descriptions refused with the key, its line and
//! column; and a setter's way from a game section, with no Rust and no
//! reference, to a green `verify`, a shrunk `stress` counterexample, an
//! exported package, and a played game.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{Project, grundy_in, stderr, stdout};

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(out), stderr(out)))
}

fn numbers(v: &serde_json::Value) -> Vec<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_u64().unwrap_or_else(|| panic!("not a number: {x}")))
        .collect()
}

/// OEIS A002186, Kayles (octal game 0.77), G(0) … G(104).
const A002186: [u64; 105] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
    4, 1, 2, 8, 1, 4, 7, 2, 1,
];

/// OEIS A002187, Dawson's chess (octal game 0.137), G(0) … G(119).
/// Dawson's Kayles (0.07) has these values one heap later.
const A002187: [u64; 120] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
    5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
    0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9,
];

#[test]
fn kayles_values_and_period_are_the_published_ones() {
    let out = grundy_in(
        &repo("problems"),
        &["game", "kayles", "--values", "105", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("{\"values\": ["), "{text}");
    let v = json(&out);
    assert_eq!(numbers(&v["values"]), A002186);
    // Periodic with period 12 from n = 71 on; the last exception is 70.
    assert_eq!(
        v["period"],
        serde_json::json!({"from": 71, "length": 12, "proven": true})
    );
    assert_eq!(v.as_object().map(|o| o.len()), Some(2), "{v}");
    // Far past the published terms the period holds.
    let far = grundy_in(
        &repo("problems"),
        &["game", "kayles", "--values", "3000", "--json"],
    );
    let far = numbers(&json(&far)["values"]);
    for n in 71..3000 - 12 {
        assert_eq!(far[n + 12], far[n], "n = {n}");
    }
    assert_ne!(far[70 + 12], far[70]);
}

#[test]
fn dawsons_kayles_values_are_dawsons_chess_one_heap_later() {
    let out = grundy_in(
        &repo("problems"),
        &["game", "dawsons-kayles", "--values", "121", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    let values = numbers(&v["values"]);
    assert_eq!(values[0], 0);
    assert_eq!(&values[1..], &A002187[..]);
    // Dawson's chess has period 34 with its last exception at 51, so
    // Dawson's Kayles has it from 53 (last exception 52).
    assert_eq!(
        v["period"],
        serde_json::json!({"from": 53, "length": 34, "proven": true})
    );
}

#[test]
fn a_position_shows_its_value_and_winning_moves() {
    let out = grundy_in(
        &repo("problems"),
        &["game", "kayles", "--position", "4 4 1", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    let p = &v["position"];
    assert_eq!(p["value"], 1, "{p}");
    assert_eq!(p["first_player_wins"], true, "{p}");
    // Taking the single pin is one winning move.
    let moves: Vec<&str> = p["winning_moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| m.as_str())
        .collect();
    assert!(moves.contains(&"3 0 0"), "{moves:?}");
    let text = stdout(&grundy_in(&repo("problems"), &["game", "subtraction-game"]));
    assert!(text.contains("period: 7 from n = 0, proven"), "{text}");
    assert!(text.contains("P-positions"), "{text}");
}

/// A problem folder holding `problem.yaml` = head + `game` + tail.
fn described(game: &str) -> Project {
    let spec = format!("id: bad\ntitle: Bad\n{game}");
    Project::with_problem("bad", &spec, "# Bad\n")
}

#[test]
fn descriptions_outside_the_vocabulary_or_that_need_not_end_are_refused_where_written() {
    let head = "game:\n  heaps: [1, 10]\n  tokens: [1, 100]\n";
    for (rest, place, why) in [
        (
            "  moves:\n    - take: [0, 2]\n  question: {winner: [A, B]}\n",
            "problem.yaml:7:5:",
            "need not end",
        ),
        (
            "  moves:\n    - octal: \"2.7\"\n  question: {winner: [A, B]}\n",
            "problem.yaml:7:5:",
            "need not end",
        ),
        (
            "  moves:\n    - jump: 3\n  question: {winner: [A, B]}\n",
            "problem.yaml:7:5:",
            "unknown move",
        ),
        (
            "  moves:\n    - take: [1]\n    - take: {max: k}\n  question: {winner: [A, B]}\n",
            "problem.yaml:8:5: game.moves[1]:",
            "`k` is not a parameter",
        ),
        (
            "  parameters:\n    k: [0, 5]\n  moves: [{heaps: k}]\n  question: {winner: [A, B]}\n",
            "problem.yaml:7:5: game.parameters.k:",
            "allow no move",
        ),
        (
            "  moves: [wythoff]\n  question: {move: lose}\n",
            "problem.yaml:7:3: game.question:",
            "each change one heap",
        ),
        (
            "  moves: [staircase, {octal: \"0.4\"}]\n  question: {winner: [A, B]}\n",
            "problem.yaml:6:3: game.moves:",
            "cannot be combined",
        ),
        (
            "  moves: [wythoff]\n  question: {winner: [A, B]}\n  ending: sudden\n",
            "problem.yaml:8:3: game.ending:",
            "`sudden` is unknown",
        ),
    ] {
        let p = described(&format!("{head}{rest}"));
        let out = p.grundy(&["verify", "bad"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{rest}\n{err}");
        assert!(err.contains(place), "{rest}\nwanted {place}:\n{err}");
        assert!(err.contains(why), "{rest}\nwanted {why}:\n{err}");
    }
    // The same checks on the command line's description.
    let p = Project::empty();
    let out = p.grundy(&[
        "new",
        "x",
        "--game",
        "{heaps: [1, 9], tokens: [1, 9], moves: [{take: [0]}], question: count}",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--game:1:"), "{}", stderr(&out));
    assert!(!p.path("problems/x").exists());
}

/// What a setter writes: the game, and nothing else.
const GAME: &str = "# Take 2, 5 or 6 tokens, or take 1 and split the rest in two.
heaps: [1, 20]
tokens: [1, 1000000000]
moves:
  # from one heap, leaving what is left as one heap (or none)
  - take: [2, 5, 6]
  # one token from a heap, the rest left as two non-empty heaps
  - octal: \"0.4\"
ending: normal
question:
  winner: [Yes, No]
# a first line T, then T positions, one per line
cases: [1, 100]
list: same-line
";

/// The same game, played against the judge, with heaps a game can finish.
const PLAYED: &str = "heaps: [1, 5]
tokens: [1, 30]
moves:
  - take: [2, 5, 6]
  - octal: \"0.4\"
question: play
";

/// A player that forgets the split move (values of take 2, 5 or 6 alone,
/// which repeat every 11 heaps) — wrong from a heap of 11 on.
const FORGETS_SPLITS: &str = "import sys
W = [0, 0, 1, 1, 0, 2, 1, 3, 0, 2, 1]
data = sys.stdin.read().split()
t = int(data[0])
pos = 1
for _ in range(t):
    n = int(data[pos])
    x = 0
    for a in data[pos + 1:pos + 1 + n]:
        x ^= W[int(a) % 11]
    pos += 1 + n
    print('Yes' if x else 'No')
";

/// A right program for the game of [`GAME`]: values by the rules up to a
/// little past the start of their period (of length 4), then by it.
fn python_reference(from: u64) -> String {
    format!(
        "import sys
FROM = {from}
N = FROM + 8
G = [0] * (N + 1)
for a in range(1, N + 1):
    seen = set(G[a - k] for k in (2, 5, 6) if k <= a)
    seen.update(G[x] ^ G[a - 1 - x] for x in range(1, a - 1))
    while G[a] in seen:
        G[a] += 1
def g(a):
    return G[a] if a <= N else G[FROM + (a - FROM) % 4]
data = sys.stdin.read().split()
t = int(data[0])
pos = 1
for _ in range(t):
    n = int(data[pos])
    x = 0
    for a in data[pos + 1:pos + 1 + n]:
        x ^= g(int(a))
    pos += 1 + n
    print('Yes' if x else 'No')
"
    )
}

/// A right player of the played game (`split` false: one that never
/// splits a heap, and so misses some winning moves).
fn player(split: bool) -> String {
    format!(
        "import sys
SPLIT = {}
def moves(a):
    for k in (2, 5, 6):
        if k <= a:
            yield (a - k, 0)
    if SPLIT:
        for x in range(1, a - 1):
            yield (x, a - 1 - x)
G = [0] * 64
for a in range(1, 64):
    seen = {{G[l] ^ G[r] for l, r in moves(a)}}
    while G[a] in seen:
        G[a] += 1
def tokens():
    for line in sys.stdin:
        for t in line.split():
            yield int(t)
read = tokens()
for _ in range(next(read)):
    n = next(read)
    if n < 0:
        break
    rows = [next(read) for _ in range(n)]
    x = 0
    for a in rows:
        x ^= G[a]
    mine = x != 0
    print('first' if mine else 'second', flush=True)
    while any(next(iter(moves(a)), None) for a in rows):
        if mine:
            x = 0
            for a in rows:
                x ^= G[a]
            move = None
            for i, a in enumerate(rows):
                for l, r in moves(a):
                    if G[l] ^ G[r] == x ^ G[a]:
                        move = (i, l, r)
                        break
                if move:
                    break
            if move is None:
                i = next(i for i, a in enumerate(rows) if next(iter(moves(a)), None))
                move = (i,) + next(iter(moves(rows[i])))
            i, l, r = move
            print(i + 1, l, r, flush=True)
        else:
            i = next(read)
            if i < 0:
                sys.exit(0)
            l, r = next(read), next(read)
            i -= 1
        rows[i] = l
        if r > 0:
            rows.append(r)
        mine = not mine
",
        if split { "True" } else { "False" }
    )
}

#[test]
fn a_setter_goes_from_a_game_section_to_verify_stress_export_and_play() {
    let p = Project::empty();
    let game = p.write("game.yaml", GAME);
    assert!(GAME.lines().count() <= 15, "a short section");
    let arg = format!("@{}", game.display());
    let out = p.grundy(&["new", "take-game", "--game", &arg]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // No Rust, no reference: only the spec and the statement.
    let dir = p.path("problems/take-game");
    assert!(!dir.join("reference.rs").exists());
    assert!(!p.path("reference").exists());
    let spec = std::fs::read_to_string(dir.join("problem.yaml")).expect("spec");
    assert!(spec.contains("generator: game"), "{spec}");

    // verify: green, the oracle's small positions agreeing with the
    // description's proven answers.
    let out = p.grundy(&["verify", "take-game", "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    let t = &v["problems"][0];
    assert_eq!(t["oracle"]["status"], "ok", "{t:#}");
    let detail = t["oracle"]["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("answers proven for heaps of any size"),
        "{detail}"
    );
    assert_eq!(t["input"]["status"], "ok", "{t:#}");
    assert_eq!(t["samples"]["status"], "ok", "{t:#}");

    // The values and their proven period.
    let out = p.grundy(&["game", "take-game", "--values", "40", "--json"]);
    let v = json(&out);
    assert_eq!(v["period"]["length"], 4, "{v}");
    let period = v["period"].clone();
    let values = numbers(&v["values"]);

    // stress: a program that forgets the split move fails; the input is
    // shrunk to one position of one heap, the smallest that fails.
    let wrong = p.write("subs/forgets_splits.py", FORGETS_SPLITS);
    let w = wrong.to_string_lossy().into_owned();
    let out = p.grundy(&[
        "stress",
        "take-game",
        &w,
        "--json",
        "--time",
        "20",
        "--seed",
        "3",
    ]);
    let v = json(&out);
    assert_eq!(v["found"], true, "{v:#}");
    let shrunk: Vec<u64> = v["input"]
        .as_str()
        .expect("input")
        .split_whitespace()
        .map(|t| t.parse().expect("number"))
        .collect();
    let smallest = (1..40)
        .find(|&a: &usize| (values[a] != 0) != ([0, 0, 1, 1, 0, 2, 1, 3, 0, 2, 1][a % 11] != 0))
        .expect("a heap where they differ") as u64;
    assert_eq!(smallest, 11);
    assert_eq!(shrunk, vec![1, 1, smallest], "{v:#}");

    // export: a package problemtools accepts.
    let pkg = p.path("takegame");
    let out = p.grundy(&["export", "take-game", "--to", &pkg.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    verifyproblem(&pkg);

    // A reference stays optional, and is checked when the spec has one:
    // a right one (in Python) agrees with the oracle and the proven
    // answers; one that forgets the split move is refused.
    let from = period["from"].as_u64().expect("the period's start");
    assert!(from < 200, "{period}");
    let reference = p.write("reference/take-game.py", &python_reference(from));
    let out = p.grundy(&["verify", "take-game", "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    let t = &v["problems"][0];
    assert_eq!(t["reference"]["status"], "ok", "{t:#}");
    assert_eq!(t["oracle"]["status"], "ok", "{t:#}");
    std::fs::write(&reference, FORGETS_SPLITS).expect("write");
    let out = p.grundy(&["verify", "take-game", "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(1), "{v:#}");
    let t = &v["problems"][0];
    assert_eq!(t["reference"]["status"], "failed", "{t:#}");
    std::fs::remove_file(&reference).expect("rm");

    // A played game from the same rules: the judge plays its side.
    let played = p.write("played.yaml", PLAYED);
    let arg = format!("@{}", played.display());
    let out = p.grundy(&["new", "take-play", "--game", &arg]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let right = p.write("subs/player.py", &player(true));
    let out = p.grundy(&["judge", "take-play", &right.to_string_lossy(), "--json"]);
    let v = json(&out);
    assert_eq!(v["results"][0]["verdict"], "AC", "{v:#}");
    let no_splits = p.write("subs/no_splits.py", &player(false));
    let out = p.grundy(&["judge", "take-play", &no_splits.to_string_lossy(), "--json"]);
    let v = json(&out);
    let r = &v["results"][0];
    assert_eq!(r["verdict"], "WA", "{v:#}");
    let failing = r["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .find(|t| t["verdict"] == "WA")
        .expect("a lost game");
    assert!(failing["game"]["moves"].is_array(), "{failing:#}");
    let out = p.grundy(&["verify", "take-play"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

/// Take 1, 3 or 4 tokens from one heap, written in four lines.
const SUBTRACTION: &str = "{heaps: [1, 10], tokens: [1, 1000000000000000000], \
    moves: [{take: [1, 3, 4]}], question: {winner: [First, Second]}, \
    cases: [1, 50], list: same-line}";

/// A right Rust reference for [`SUBTRACTION`]: its values repeat every 7.
const SUBTRACTION_RS: &str = r#"use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let g = [0u64, 1, 0, 1, 2, 3, 2];
    let mut pos = 1;
    for _ in 0..v[0] {
        let n = v[pos] as usize;
        let mut x = 0;
        for a in &v[pos + 1..pos + 1 + n] {
            x ^= g[(a % 7) as usize];
        }
        pos += 1 + n;
        println!("{}", if x != 0 { "First" } else { "Second" });
    }
}
"#;

/// `mutants` measures a described problem's tests with its Rust
/// reference: mutants are searched against the description's own small
/// positions and proven answers, and the derived tests kill them all.
#[test]
fn mutants_of_a_described_problems_reference_are_killed_by_its_derived_tests() {
    let p = Project::empty();
    let out = p.grundy(&["new", "sub", "--game", SUBTRACTION]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    p.write("reference/sub.rs", SUBTRACTION_RS);
    let out = p.grundy(&["mutants", "sub", "--json", "--jobs", "2"]);
    let o = json(&out);
    assert_eq!(out.status.code(), Some(0), "{o:#}\n{}", stderr(&out));
    assert!(
        o["reference"]
            .as_str()
            .is_some_and(|r| r.ends_with("reference/sub.rs")),
        "{o}"
    );
    let mutants = o["mutants"].as_array().expect("mutants");
    assert!(mutants.len() >= 5, "{o}");
    // The period's length, one off either way, is caught.
    for kind in ["literal-plus-1", "literal-minus-1"] {
        let m = mutants
            .iter()
            .find(|m| {
                m["kind"] == kind
                    && m["description"]
                        .as_str()
                        .is_some_and(|d| d.ends_with("in a % 7"))
            })
            .unwrap_or_else(|| panic!("no {kind} mutant of the period: {o}"));
        assert_eq!(m["outcome"], "killed", "{m}");
    }
    assert_eq!(o["score"], 100.0, "{o}");
    let survived: Vec<_> = mutants
        .iter()
        .filter(|m| m["outcome"] == "survived")
        .collect();
    assert!(survived.is_empty(), "{survived:#?}");
}

/// `verifyproblem` on a package, when installed (required in CI).
fn verifyproblem(pkg: &std::path::Path) {
    let have = Command::new("verifyproblem")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("CI").is_none(),
            "verifyproblem is missing: .ci/setup.sh installs problemtools"
        );
        eprintln!("skipped: verifyproblem is not installed (bash .ci/setup.sh installs it)");
        return;
    }
    // Python validators run as CPython, not PyPy (as in tests/export.rs).
    let config = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(config.path().join("problemtools")).expect("mkdir");
    std::fs::write(
        config.path().join("problemtools/languages.yaml"),
        "python3:\n    name: 'Python 3'\n    compile: 'python3 -m py_compile {files}'\n    run: 'python3 \"{mainfile}\"'\n",
    )
    .expect("write");
    let limit = std::fs::read_to_string(pkg.join(".timelimit")).unwrap_or_else(|_| "2".into());
    let out = Command::new("verifyproblem")
        .arg("-t")
        .arg(limit.trim())
        .arg(pkg)
        .env("XDG_CONFIG_HOME", config.path())
        .output()
        .expect("run verifyproblem");
    let text = format!("{}{}", stdout(&out), stderr(&out));
    let name = pkg
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    assert!(
        out.status.success() && text.contains(&format!("{name} tested: 0 errors")),
        "{text}"
    );
}

/// Wythoff's game (a diagonal move) and a misère sum have no theorem
/// here: their answers reach only the searched positions, `verify` says
/// so, and the derived tests stay within that reach.
#[test]
fn games_with_no_theorem_are_answered_only_as_far_as_searched_and_verify_says_so() {
    for game in [
        "game:\n  heaps: 2\n  tokens: [0, 1000000000]\n  moves: [{take: any}, wythoff]\n  \
         question: {winner: [First, Second]}\n  cases: [1, 100]\n  list: same-line\n",
        "game:\n  heaps: [1, 10]\n  tokens: [1, 1000000000]\n  moves: [{take: [1, 3, 4]}]\n  \
         ending: misere\n  question: {winner: [First, Second]}\n  cases: [1, 100]\n",
    ] {
        let p = described(game);
        let out = p.grundy(&["verify", "bad", "--json"]);
        let v = json(&out);
        let t = &v["problems"][0];
        assert_eq!(t["oracle"]["status"], "ok", "{game}\n{t:#}");
        let detail = t["oracle"]["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("answers only up to the searched bound"),
            "{game}\n{detail}"
        );
        // Wythoff's few small positions fit in one input.
        if game.contains("wythoff") {
            assert!(detail.starts_with("1 input: "), "{detail}");
        }
        assert_eq!(t["input"]["status"], "ok", "{game}\n{t:#}");
        // No reference is needed for the derived tests: every one is
        // answered (the spec has no samples, which is all that fails).
        assert_eq!(t["reference"]["status"], "skipped", "{game}\n{t:#}");
        let why = t["reference"]["detail"].as_str().unwrap_or_default();
        assert!(why.contains("every test has its answer"), "{game}\n{why}");
    }
}

/// A test beyond what the description decides, with no reference to
/// answer it: `verify` fails naming the test and why it has no answer.
#[test]
fn a_test_the_description_cannot_answer_is_named_when_there_is_no_reference() {
    let p = described(
        "game:\n  heaps: 2\n  tokens: [0, 1000000000]\n  moves: [{take: any}, wythoff]\n  \
         question: {winner: [First, Second]}\n  cases: [1, 100]\n  list: same-line\n\
         groups:\n  - name: far\n    points: 100\n    tests:\n      \
         - input: \"1\\n2 999999 1000000000\\n\"\n",
    );
    let out = p.grundy(&["verify", "bad", "--json"]);
    let v = json(&out);
    let t = &v["problems"][0];
    assert_eq!(t["reference"]["status"], "failed", "{t:#}");
    let why = t["reference"]["detail"].as_str().unwrap_or_default();
    assert!(
        why.contains("no reference solution")
            && why.contains("test far-1: no answer: the game described in"),
        "{why}"
    );
}
